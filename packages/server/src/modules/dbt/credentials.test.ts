import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGitHost, type TestGitHost } from '../../git/test-http.js';
import type { TestGitRepo } from '../../git/test-repos.js';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { newDeployment } from '../builds/test-fixtures.js';
import { dbtBase, sampleDbtRepo, startSync, syncStatus } from './test-fixtures.js';

/** The password the test host takes; every check below looks for it where it must never be. */
const SECRET = 'secret';
let source: TestGitRepo;
let host: TestGitHost;
/** What the host takes now: a test changes it to play a password changed at the host. */
let password = SECRET;
const users: string[] = [];

beforeAll(async () => {
  source = await sampleDbtRepo();
  host = await startTestGitHost({
    repositories: { repo: source.dir },
    authorize: (user, given) => (users.push(user), user === 'user' && given === password),
  });
});
afterAll(async () => {
  await host?.close();
  await source?.remove();
});

describeOnStores('dbt integration of a repository whose https URL carries a password', (server) => {
  const plain = () => `${host.url}/repo.git`;
  const withPassword = (pw: string) => plain().replace('://', `://user:${pw}@`);
  const put = (account: TestAccount, deploymentId: number, body: unknown) =>
    account.request({ method: 'PUT', url: dbtBase(deploymentId), as: account.admin, body });
  /** Every column of the account's dbt rows and jobs, as stored. */
  const stored = async (s: TestServer, accountId: number) =>
    JSON.stringify([
      await s.store.db.selectFrom('dbt_integration').selectAll().where('account_id', '=', accountId).execute(),
      await s.store.db.selectFrom('dbt_sync').selectAll().where('account_id', '=', accountId).execute(),
      await s.store.db.selectFrom('job').selectAll().where('account_id', '=', accountId).execute(),
    ]);

  it('syncs with the password sent to git; the store, the view and the status hold the URL without it', async () => {
    const account = await server().newAccount();
    const deploymentId = await newDeployment(account);
    const base = dbtBase(deploymentId);
    users.length = 0;
    const connected = await put(account, deploymentId, { repository: withPassword(SECRET) });
    expect(connected.status, connected.text).toBe(200);
    expect(connected.body).toMatchObject({ repository: plain(), installationId: null, branch: 'main' });
    const row = await server()
      .store.db.selectFrom('dbt_integration')
      .selectAll()
      .where('deployment_id', '=', deploymentId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ repository: plain(), installation_id: null, repository_credentials: expect.stringMatching(/^v1\./) });

    const started = await startSync(account, base);
    expect(started.status, started.text).toBe(202);
    await server().jobs.runUntilIdle();
    const done = await syncStatus(account, base, started.body.syncJobId);
    expect(done.body, done.text).toMatchObject({ status: 'COMPLETED', commitSha: await source.head(), error: null });
    // ls-remote at connect and at sync start, then the sync's own ls-remote and clone: each one authenticated.
    expect(users.length).toBeGreaterThanOrEqual(4);
    expect(new Set(users)).toEqual(new Set(['user']));

    const view = await account.request({ method: 'GET', url: base, as: account.member });
    expect(view.body).toEqual(connected.body);
    for (const text of [connected.text, started.text, done.text, view.text, await stored(server(), account.id)]) {
      expect(text).not.toContain(SECRET);
    }
  });

  it('a wrong or changed password fails connect, sync start and the sync with an auth error naming the URL without it', async () => {
    const account = await server().newAccount();
    const deploymentId = await newDeployment(account);
    const base = dbtBase(deploymentId);
    const wrong = await put(account, deploymentId, { repository: withPassword('wrong-pw') });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toContain(`Authentication to ${plain()} failed`);
    expect(wrong.text).not.toContain('wrong-pw');
    expect((await account.request({ method: 'GET', url: base, as: account.admin })).status).toBe(404);

    expect((await put(account, deploymentId, { repository: withPassword(SECRET) })).status).toBe(200);
    const queued = await startSync(account, base);
    expect(queued.status).toBe(202);
    password = 'changed';
    try {
      const refused = await startSync(account, base);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain(`Authentication to ${plain()} failed`);
      await server().jobs.runUntilIdle();
    } finally {
      password = SECRET;
    }
    const failed = await syncStatus(account, base, queued.body.syncJobId);
    expect(failed.body).toMatchObject({ status: 'FAILED', stage: 'clone', branchName: null });
    expect(failed.body.error).toContain(`Authentication to ${plain()} failed`);
    expect(failed.text).not.toContain(SECRET);
    expect(await stored(server(), account.id)).not.toContain(SECRET);
  });

  it('a token alone as the user is accepted; a disconnect takes the credentials from syncs still queued', async () => {
    const account = await server().newAccount();
    const deploymentId = await newDeployment(account);
    const base = dbtBase(deploymentId);
    password = '';
    try {
      // `https://<token>@host/…`: the token is the user, with an empty password (as GitHub takes it).
      const tokenOnly = await put(account, deploymentId, { repository: plain().replace('://', '://user@') });
      expect(tokenOnly.status, tokenOnly.text).toBe(200);
      expect(tokenOnly.body.repository).toBe(plain());
      const queued = await startSync(account, base);
      expect(queued.status, queued.text).toBe(202);
      expect((await account.request({ method: 'DELETE', url: base, as: account.admin })).status).toBe(204);
      await server().jobs.runUntilIdle();
      const failed = await syncStatus(account, base, queued.body.syncJobId);
      expect(failed.body).toMatchObject({ status: 'FAILED', stage: 'clone' });
      expect(failed.body.error).toContain(`Authentication to ${plain()} failed`);
    } finally {
      password = SECRET;
    }
  });
});
