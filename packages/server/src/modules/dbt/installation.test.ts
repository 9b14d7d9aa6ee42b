import { afterAll, expect, it, vi } from 'vitest';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { newDeployment } from '../builds/test-fixtures.js';
import { githubFixture, INSTALLATION } from '../github/test-fixtures.js';
import { sampleDbtProjectFiles } from './project/fixtures.js';
import { dbtBase, startSync, syncStatus } from './test-fixtures.js';

const fixture = await githubFixture();
afterAll(() => fixture.close());
/** A private repository of the installation holding the sample dbt project; cloned only with an installation token. */
const analytics = await fixture.addRepository('analytics', { 'README.md': '# analytics\n', ...sampleDbtProjectFiles() });
const REPOSITORY = 'acme/analytics';

describeOnStores(
  'dbt integration of a private GitHub repository through the App installation',
  (server) => {
    const put = (account: TestAccount, deploymentId: number, body: unknown) =>
      account.request({ method: 'PUT', url: dbtBase(deploymentId), as: account.admin, body });
    /** The installation tokens git presented for the repository's clones and ref listings since `from`. */
    const gitTokens = (from: number) =>
      fixture.standIn.gitRequests.slice(from).flatMap((r) => (r.path.startsWith(`/${REPOSITORY}.git/`) ? [`${r.user}:${r.token}`] : []));

    it('connects by installationId and owner/repo, and syncs with a fresh installation token, replacing a revoked one', async () => {
      const account = await server().newAccount();
      const deploymentId = await newDeployment(account);
      const base = dbtBase(deploymentId);
      let seen = fixture.standIn.gitRequests.length;
      const connected = await put(account, deploymentId, { repository: REPOSITORY, installationId: INSTALLATION, folder: '.' });
      expect(connected.status, connected.text).toBe(200);
      expect(connected.body).toMatchObject({
        deploymentId,
        repository: REPOSITORY,
        installationId: INSTALLATION,
        folder: '',
        branch: 'main',
      });
      expect(gitTokens(seen)).not.toEqual([]);
      expect(new Set(gitTokens(seen))).toEqual(new Set([`x-access-token:${fixture.standIn.tokens.at(-1)}`]));
      const view = await account.request({ method: 'GET', url: base, as: account.member });
      expect(view.body).toEqual(connected.body);

      // Every token the server holds is revoked: starting the sync and the sync itself each get a new one.
      fixture.standIn.revokeTokens();
      seen = fixture.standIn.gitRequests.length;
      const started = await startSync(account, base);
      expect(started.status, started.text).toBe(202);
      fixture.standIn.revokeTokens();
      await server().jobs.runUntilIdle();
      const done = await syncStatus(account, base, started.body.syncJobId);
      expect(done.body, done.text).toMatchObject({ status: 'COMPLETED', commitSha: await analytics.head(), error: null });
      expect(done.body.stages[0].message).toContain(`Cloned branch main at ${(await analytics.head()).slice(0, 7)}`);
      const tokens = gitTokens(seen);
      expect(new Set(tokens).size).toBe(2);
      // The sync cloned with the token issued last, the one GitHub takes now.
      expect(tokens.at(-1)).toBe(`x-access-token:${fixture.standIn.tokens.at(-1)}`);
      expect(fixture.standIn.tokens).toHaveLength(1);
      const row = await server()
        .store.db.selectFrom('dbt_sync')
        .selectAll()
        .where('id', '=', started.body.syncJobId)
        .executeTakeFirstOrThrow();
      expect([row.repository, Number(row.installation_id)]).toEqual([REPOSITORY, INSTALLATION]);
      const text = [connected.text, view.text, started.text, done.text].join('\n');
      for (const token of tokens) expect(text).not.toContain(token.split(':')[1]);
    });

    it('a token git refuses (revoked after GitHub answered) is forgotten: that sync fails with an auth error, the next gets a new token', async () => {
      const account = await server().newAccount();
      const deploymentId = await newDeployment(account);
      const base = dbtBase(deploymentId);
      expect((await put(account, deploymentId, { repository: REPOSITORY, installationId: INSTALLATION })).status).toBe(200);
      const client = server().services.github.client;
      const held = await client.installationToken(INSTALLATION);
      const original = client.getRepository.bind(client);
      const spy = vi.spyOn(client, 'getRepository').mockImplementationOnce(async (...args) => {
        const found = await original(...args);
        fixture.standIn.revokeTokens();
        return found;
      });
      try {
        const refused = await startSync(account, base);
        expect(refused.status).toBe(400);
        expect(refused.body.error).toMatch(/^Authentication to http:\/\/127\.0\.0\.1:\d+\/acme\/analytics\.git failed/);
        expect(refused.text).not.toContain(held);
      } finally {
        spy.mockRestore();
      }
      expect(await client.installationToken(INSTALLATION)).not.toBe(held);
      const started = await startSync(account, base);
      expect(started.status, started.text).toBe(202);
      await server().jobs.runUntilIdle();
      expect((await syncStatus(account, base, started.body.syncJobId)).body.status).toBe('COMPLETED');
    });

    it('refuses owner/repo an installation cannot reach, or a bad one, with the messages of github connect, storing nothing', async () => {
      const account = await server().newAccount();
      const deploymentId = await newDeployment(account);
      const cases: Array<[unknown, RegExp]> = [
        [
          { repository: 'not a repo', installationId: INSTALLATION },
          /^With installationId, repository is owner\/repo as GitHub names it, got "not a repo"$/,
        ],
        [
          { repository: 'acme/absent', installationId: INSTALLATION },
          /^Repository acme\/absent not found on GitHub or installation 101 of the App cannot reach it/,
        ],
        [{ repository: REPOSITORY, installationId: 999 }, /^Installation 999 not found on GitHub/],
        [
          { repository: REPOSITORY, installationId: INSTALLATION, branch: 'nope' },
          /^Branch "nope" not found in http:\/\/127\.0\.0\.1:\d+\/acme\/analytics\.git \(its branches: main\)$/,
        ],
        [{ repository: REPOSITORY, installationId: 0 }, /installationId/],
      ];
      for (const [body, message] of cases) {
        const refused = await put(account, deploymentId, body);
        expect(refused.status, JSON.stringify(body)).toBe(400);
        expect(refused.body.error).toMatch(message);
      }
      expect((await account.request({ method: 'GET', url: dbtBase(deploymentId), as: account.admin })).status).toBe(404);
    });
  },
  fixture.env,
);
