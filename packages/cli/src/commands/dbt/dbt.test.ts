import { afterAll, expect, it } from 'vitest';
import { type TestGitRepo, sampleDbtProjectFiles, editFile, sampleDbtRepo, githubFixture, INSTALLATION } from '@plinth/server/test-support';
import { withRunner } from '../../test-support/cli-model.js';
import { cliRunner, describeCli } from '../../test-support/harness.js';

let good: TestGitRepo;
let broken: TestGitRepo;
afterAll(async () => Promise.all([good?.remove(), broken?.remove()]));
/** A GitHub stand-in whose installation holds a private dbt repository, for --installation. */
const github = await githubFixture();
afterAll(() => github.close());
const analytics = await github.addRepository('analytics', sampleDbtProjectFiles());

describeCli('plinth dbt', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  const deployment = async () => {
    const created = await plinth(['deployments', 'create', '--name', 'shop', '--json'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    return String(JSON.parse(created.stdout).id);
  };
  const connectTo = async (repo: TestGitRepo) => {
    const id = await deployment();
    const connected = await plinth(['dbt', 'connect', id, '--repo', repo.dir], { env: env() });
    expect(connected.code, connected.stderr).toBe(0);
    return id;
  };

  it('connect, show, disconnect; connect refuses a missing branch and changes nothing', async () => {
    good ??= await sampleDbtRepo();
    const id = await deployment();
    const missing = await plinth(['dbt', 'connect', id, '--repo', good.dir, '--branch', 'nope'], { env: env() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`error: Branch "nope" not found in ${good.dir}`);
    const none = await plinth(['dbt', 'show', id], { env: env() });
    expect(none.code).toBe(1);
    const connected = await plinth(['dbt', 'connect', id, '--repo', good.dir, '--folder', '.'], { env: env() });
    expect(connected.code, connected.stderr).toBe(0);
    expect(connected.stdout).toMatch(new RegExp(`^Repository +${good.dir}$`, 'm'));
    expect(connected.stdout).toMatch(/^Folder +\(repository root\)$/m);
    expect(connected.stdout).toMatch(/^Branch +main$/m);
    const shown = await plinth(['dbt', 'show', id, '--json'], { env: env() });
    expect(JSON.parse(shown.stdout)).toMatchObject({ repository: good.dir, folder: '', branch: 'main' });
    const noRepo = await plinth(['dbt', 'connect', id], { env: env() });
    expect(noRepo.code).toBe(2);
    expect((await plinth(['dbt', 'disconnect', id], { env: env() })).code).toBe(0);
    expect((await plinth(['dbt', 'show', id], { env: env() })).code).toBe(1);
  });

  it('sync prints the syncJobId; status and result read it; an empty or SHA --ref is refused before any request', async () => {
    good ??= await sampleDbtRepo();
    const id = await connectTo(good);
    const empty = await plinth(['dbt', 'sync', id, '--ref', ''], { env: env() });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("error: --ref is empty; name a branch or tag, or leave --ref out to sync the integration's branch");
    const sha = await plinth(['dbt', 'sync', id, '--ref', (await good.head()).slice(0, 7)], { env: env() });
    expect(sha.code).toBe(2);
    expect(sha.stderr).toContain('error: --ref takes a branch or tag, not a commit SHA\n');
    const started = await plinth(['dbt', 'sync', id], { env: env() });
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(/^\d+\n$/);
    const syncJobId = started.stdout.trim();
    const queued = await plinth(['dbt', 'status', id, syncJobId], { env: env() });
    expect(queued.stdout).toContain(`dbt sync ${syncJobId} of main: QUEUED`);
    expect(queued.stdout).toMatch(/^clone +pending/m);
    const early = await plinth(['dbt', 'result', id, syncJobId], { env: env() });
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('is QUEUED');
    const waited = await withRunner(ctx(), () => plinth(['dbt', 'status', id, syncJobId, '--wait', '--interval', '0.05'], { env: env() }));
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toMatch(/^model\/dbt\/orders\.yml +orders$/m);
    const result = await plinth(['dbt', 'result', id, syncJobId], { env: env() });
    expect(result.stdout).toMatch(/^Status +COMPLETED$/m);
    expect(result.stdout).toMatch(/^Branch +dbt-main-\d{14}-[0-9a-f]{7}$/m);
    const cancel = await plinth(['dbt', 'cancel', id, syncJobId], { env: env() });
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toContain('is already COMPLETED');
  });

  it('sync --wait prints each stage on stderr and the generated files on stdout; --wait --json prints one document', async () => {
    good ??= await sampleDbtRepo();
    const id = await connectTo(good);
    const waited = await withRunner(ctx(), () => plinth(['dbt', 'sync', id, '--wait', '--interval', '0.05'], { env: env() }));
    expect(waited.code, waited.stderr).toBe(0);
    for (const stage of ['clone', 'parse', 'generate', 'write', 'build'])
      expect(waited.stderr).toMatch(new RegExp(`^${stage} +done `, 'm'));
    expect(waited.stderr).toMatch(/: COMPLETED, branch dbt-main-\d{14}-[0-9a-f]{7}\n$/);
    expect(waited.stdout.split('\n')[0]).toMatch(/^PATH +CUBE$/);
    expect(waited.stdout).toMatch(/^model\/dbt\/customers\.yml +customers$/m);

    const json = await withRunner(ctx(), () => plinth(['dbt', 'sync', id, '--wait', '--json', '--interval', '0.05'], { env: env() }));
    expect(json.code, json.stderr).toBe(0);
    const document = JSON.parse(json.stdout);
    expect(Object.keys(document).sort()).toEqual(['branchName', 'error', 'files', 'stages', 'status', 'syncJobId']);
    expect(document).toMatchObject({ status: 'COMPLETED', error: null, syncJobId: expect.any(Number) });
    expect(document.branchName).toMatch(/^dbt-main-\d{14}-[0-9a-f]{7}$/);
    expect(document.files).toContainEqual({ path: 'model/dbt/orders.yml', cube: 'orders' });
  });

  it('sync --wait --json exits 1 on a build that fails, with the compiler error in the document; the branch stays', async () => {
    broken ??= await sampleDbtRepo();
    await editFile(broken, 'models/marts/customers.sql', (text) => `{{ config(enabled=false) }}\n${text}`);
    await broken.commit({}, 'disable customers');
    const id = await connectTo(broken);
    const json = await withRunner(ctx(), () => plinth(['dbt', 'sync', id, '--wait', '--json', '--interval', '0.05'], { env: env() }));
    expect(json.code).toBe(1);
    const document = JSON.parse(json.stdout);
    expect(document.status).toBe('FAILED');
    expect(document.error).toContain('model/dbt/orders.yml');
    expect(document.stages.map((s: { status: string }) => s.status)).toEqual(['done', 'done', 'done', 'done', 'failed']);
    expect(json.stderr).toMatch(/^build +failed /m);
    expect(json.stderr).toContain(`error: dbt sync ${document.syncJobId} FAILED: Build`);
    const branches = await plinth(['data-model', 'branches', id, '--json'], { env: env() });
    expect(JSON.parse(branches.stdout).items.map((b: { name: string }) => b.name)).toContain(document.branchName);
  });
});

describeCli(
  'plinth dbt connect --installation',
  (ctx, home) => {
    const plinth = cliRunner(home);
    const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });

    it('takes owner/repo of the GitHub App installation and syncs it; a bad id is refused before any request', async () => {
      const created = await plinth(['deployments', 'create', '--name', 'shop', '--json'], { env: env() });
      const id = String(JSON.parse(created.stdout).id);
      const bad = await plinth(['dbt', 'connect', id, '--repo', 'acme/analytics', '--installation', 'abc'], { env: env() });
      expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('--installation must be a positive whole number, got "abc"') });
      const connect = ['dbt', 'connect', id, '--repo', 'acme/analytics', '--installation', String(INSTALLATION)];
      const connected = await plinth(connect, { env: env() });
      expect(connected.code, connected.stderr).toBe(0);
      expect(connected.stdout).toMatch(/^Repository +acme\/analytics$/m);
      expect(connected.stdout).toMatch(new RegExp(`^Installation +${INSTALLATION}$`, 'm'));
      const shown = await plinth(['dbt', 'show', id, '--json'], { env: env() });
      expect(JSON.parse(shown.stdout)).toMatchObject({ repository: 'acme/analytics', installationId: INSTALLATION, branch: 'main' });
      const waited = await withRunner(ctx(), () => plinth(['dbt', 'sync', id, '--wait', '--json', '--interval', '0.05'], { env: env() }));
      expect(waited.code, waited.stderr).toBe(0);
      expect(JSON.parse(waited.stdout)).toMatchObject({ status: 'COMPLETED', error: null });
      expect(waited.stderr).toContain(`Cloned branch main at ${(await analytics.head()).slice(0, 7)}`);
    });
  },
  github.env,
);
