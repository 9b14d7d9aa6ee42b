import { afterAll, expect, it } from 'vitest';
import { githubFixture, INSTALLATION, REPOSITORY } from '@plinth/server/test-support';
import { cliRunner, describeCli } from '../../test-support/harness.js';

const fixture = await githubFixture();
afterAll(() => fixture.close());

describeCli(
  'plinth github (section 4.8, github row)',
  (ctx, home) => {
    const plinth = cliRunner(home);
    const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
    const deployment = async () => {
      const created = await plinth(['deployments', 'create', '--name', 'shop', '--json'], { env: env() });
      expect(created.code, created.stderr).toBe(0);
      return String(JSON.parse(created.stdout).id);
    };

    it('status, installations, repos and branches print tables (gh is an alias); --json passes the body through', async () => {
      const status = await plinth(['github', 'status'], { env: env() });
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(
        /^Configured {2}yes\nAPI URL {5}http:\/\/127\.0\.0\.1:\d+\/api\/v3\nWebhook {5}verified with PLINTH_GITHUB_WEBHOOK_SECRET\nApp {9}Plinth Test \(plinth-test\) /,
      );
      expect(status.stderr).toBe('No deployment is connected to GitHub\n');

      const installations = await plinth(['gh', 'installations'], { env: env() });
      expect(installations).toMatchObject({ code: 0, stderr: '' });
      expect(installations.stdout).toBe(
        [
          'ID   ACCOUNT  TYPE          REPOSITORIES  SUSPENDED',
          '101  acme     Organization  selected      false',
          '202  globex   Organization  selected      false',
          '',
        ].join('\n'),
      );
      const repos = await plinth(['github', 'repos', String(INSTALLATION)], { env: env() });
      expect(repos.code, repos.stderr).toBe(0);
      expect(repos.stdout.split('\n')[0]).toBe('REPOSITORY    PRIVATE  DEFAULT BRANCH  URL');
      expect(repos.stdout).toContain('acme/extra-2');
      const json = await plinth(['github', 'repos', String(INSTALLATION), '--json'], { env: env() });
      expect(JSON.parse(json.stdout).items[0]).toMatchObject({ fullName: 'acme/shop', defaultBranch: 'main' });

      const branches = await plinth(['github', 'branches', REPOSITORY, '--installation', String(INSTALLATION)], { env: env() });
      expect(branches.code, branches.stderr).toBe(0);
      expect(branches.stdout).toBe(
        `NAME  COMMIT                                    PROTECTED\nmain  ${await fixture.shop.head()}  false\n`,
      );
    });

    it('connect imports and queues the build; show, sync and disconnect; status lists the connection', async () => {
      const id = await deployment();
      const connected = await plinth(['github', 'connect', id, REPOSITORY, '--installation', String(INSTALLATION), '--branch', 'main'], {
        env: env(),
        stderrIsTTY: true,
      });
      expect(connected.code, connected.stderr).toBe(0);
      expect(connected.stderr).toMatch(/^Imported 1 file at [0-9a-f]{7}; build \d+ queued\n$/);
      expect(connected.stdout).toMatch(
        /^Deployment {4}\d+\nRepository {4}acme\/shop\nInstallation {2}101\nBranch {8}main\nDirectory {5}model\n/,
      );
      expect(connected.stdout).toMatch(/\nBuild {9}\d+\n$/);
      await ctx().server.jobs.runUntilIdle();
      const shown = await plinth(['github', 'show', id, '--json'], { env: env() });
      const connection = JSON.parse(shown.stdout);
      expect(connection).toMatchObject({ repository: REPOSITORY, lastCommitSha: await fixture.shop.head(), lastError: null });
      const build = await plinth(['deployments', 'build-get', id, String(connection.lastBuildId), '--json'], { env: env() });
      expect(JSON.parse(build.stdout)).toMatchObject({ status: 'built', trigger: 'github' });

      const status = await plinth(['github', 'status'], { env: env() });
      expect(status.stdout).toMatch(
        new RegExp(
          `DEPLOYMENT  REPOSITORY  BRANCH  DIRECTORY  LAST COMMIT  LAST ERROR\\n${id}\\s+acme/shop   main    model      [0-9a-f]{7}\\n`,
        ),
      );

      const sync = await plinth(['github', 'sync', id], { env: env() });
      expect(sync).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Import queued \(job \d+\)\n$/) });
      const again = await plinth(['github', 'sync', id], { env: env() });
      expect(again.stdout).toMatch(/^An import is already queued or running \(job \d+\)\n$/);
      await ctx().server.jobs.runUntilIdle();

      const gone = await plinth(['github', 'disconnect', id], { env: env(), stderrIsTTY: true });
      expect(gone).toMatchObject({ code: 0, stderr: `Deleted the GitHub connection of deployment ${id}\n` });
      const missing = await plinth(['github', 'show', id], { env: env() });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(new RegExp(`^error: Deployment ${id} has no GitHub connection \\(HTTP 404\\)`));
    });

    it('errors: a missing branch is a clear 400 (exit 1) and changes nothing; usage mistakes exit 2; a member may not connect', async () => {
      const id = await deployment();
      const missing = await plinth(['github', 'connect', id, REPOSITORY, '--installation', String(INSTALLATION), '--branch', 'nope'], {
        env: env(),
      });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^error: Branch or tag "nope" not found in .* \(HTTP 400\)/);
      expect((await plinth(['github', 'show', id], { env: env() })).code).toBe(1);

      const noBranch = await plinth(['github', 'connect', id, REPOSITORY, '--installation', String(INSTALLATION)], { env: env() });
      expect(noBranch.code).toBe(2);
      expect(noBranch.stderr).toMatch(/--branch/);
      const badRepo = await plinth(['github', 'branches', 'not-a-repo', '--installation', '1'], { env: env() });
      expect(badRepo).toMatchObject({ code: 2, stderr: expect.stringContaining('<owner/repo> expects owner/repo, got "not-a-repo"') });
      const badInstallation = await plinth(['github', 'repos', 'abc'], { env: env() });
      expect(badInstallation).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('installation_id must be a positive whole number'),
      });

      const member = { ...env(), PLINTH_API_KEY: ctx().member.apiKey };
      const refused = await plinth(['github', 'connect', id, REPOSITORY, '--installation', String(INSTALLATION), '--branch', 'main'], {
        env: member,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/admin role/);
      expect((await plinth(['github', 'installations'], { env: member })).code).toBe(1);
      expect((await plinth(['github', 'status'], { env: member })).code).toBe(0);
    });
  },
  fixture.env,
);
