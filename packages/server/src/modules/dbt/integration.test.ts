import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createGitRepo, type TestGitRepo } from '../../git/test-repos.js';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores } from '../../test-support/server.js';
import { newDeployment } from '../builds/test-fixtures.js';
import { cases } from './authorization.cases.js';
import { connected, dbtBase, sampleDbtRepo, startSync, syncStatus } from './test-fixtures.js';

const repos: TestGitRepo[] = [];
afterAll(async () => Promise.all(repos.map((r) => r.remove())));
const track = <T extends TestGitRepo>(repo: T) => (repos.push(repo), repo);

describeOnStores('dbt integration and sync API', (server) => {
  it("connect records the repository, folder and the remote HEAD's branch; show, reconnect, disconnect", async () => {
    const source = track(await createGitRepo({ 'README.md': 'x' }, { branch: 'trunk' }));
    await source.branch('develop');
    await source.checkout('trunk');
    const account = await server().newAccount();
    const deploymentId = await newDeployment(account);
    const url = dbtBase(deploymentId);
    const connect = await account.request({
      method: 'PUT',
      url,
      as: account.admin,
      body: { repository: source.dir, folder: './analytics/' },
    });
    expect(connect.status, connect.text).toBe(200);
    expect(connect.body).toMatchObject({ deploymentId, repository: source.dir, folder: 'analytics', branch: 'trunk' });
    expect((await account.request({ method: 'GET', url, as: account.member })).body).toEqual(connect.body);
    const again = await account.request({ method: 'PUT', url, as: account.admin, body: { repository: source.dir, branch: 'develop' } });
    expect(again.body).toMatchObject({ folder: '', branch: 'develop' });
    expect((await account.request({ method: 'DELETE', url, as: account.admin })).status).toBe(204);
    const gone = await account.request({ method: 'GET', url, as: account.admin });
    expect([gone.status, gone.body.error]).toEqual([
      404,
      `Deployment ${deploymentId} has no dbt integration (plinth dbt connect ${deploymentId} --repo <url>)`,
    ]);
    expect((await account.request({ method: 'DELETE', url, as: account.admin })).status).toBe(404);
  });

  it('connect refuses an unreachable repository, a missing branch, a bad folder and unknown fields, changing nothing', async () => {
    const source = track(await createGitRepo({ 'README.md': 'x' }));
    const account = await server().newAccount();
    const deploymentId = await newDeployment(account);
    const url = dbtBase(deploymentId);
    const put = (body: unknown) => account.request({ method: 'PUT', url, as: account.admin, body });
    const missing = await put({ repository: `${source.dir}-missing` });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/cannot be reached/);
    const branch = await put({ repository: source.dir, branch: 'nope' });
    expect([branch.status, branch.body.error]).toEqual([400, `Branch "nope" not found in ${source.dir} (its branches: main)`]);
    const folder = await put({ repository: source.dir, folder: '../etc' });
    expect(folder.status).toBe(400);
    expect(folder.body.error).toContain('Invalid folder "../etc"');
    // An https URL's password or token is taken (credentials.test.ts); a message names the URL without it.
    const secret = await put({ repository: 'http://x-access-token:ghs_secret@127.0.0.1:9/acme/dbt.git' });
    expect([secret.status, JSON.stringify(secret.body).includes('ghs_secret')]).toEqual([400, false]);
    expect(secret.body.error).toMatch(/^Repository http:\/\/127\.0\.0\.1:9\/acme\/dbt\.git cannot be reached/);
    const tokenAsUser = await put({ repository: 'http://ghp_secret@127.0.0.1:9/acme/dbt.git' });
    expect([tokenAsUser.status, JSON.stringify(tokenAsUser.body).includes('ghp_secret')]).toEqual([400, false]);
    expect(tokenAsUser.body.error).toMatch(/^Repository http:\/\/127\.0\.0\.1:9\/acme\/dbt\.git cannot be reached/);
    const sshPassword = await put({ repository: 'ssh://git:ssh_secret@127.0.0.1/acme/dbt.git' });
    expect([sshPassword.status, JSON.stringify(sshPassword.body).includes('ssh_secret')]).toEqual([400, false]);
    expect(sshPassword.body.error).toMatch(/^repository must not carry a password in an ssh:\/\/, git:\/\/ or file:\/\/ URL/);
    const installation = await put({ repository: 'acme/dbt', installationId: 101 });
    expect([installation.status, installation.body.error]).toEqual([
      400,
      expect.stringMatching(/^GitHub is not configured on this server/),
    ]);
    const unknown = await put({ repository: source.dir, token: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('token');
    expect((await account.request({ method: 'GET', url, as: account.admin })).status).toBe(404);
    const other = await account.request({ method: 'PUT', url: dbtBase(999_999), as: account.admin, body: { repository: source.dir } });
    expect(other.status).toBe(404);
  });

  it('sync refuses a commit SHA, an empty ref and a ref the repository lacks (section 4.8 rules 4-5), and needs an integration', async () => {
    const source = track(await sampleDbtRepo());
    const { account, base } = await connected(server(), source.dir);
    const sha = await startSync(account, base, { ref: (await source.head()).slice(0, 12) });
    expect([sha.status, sha.body.error]).toEqual([400, '--ref takes a branch or tag, not a commit SHA']);
    const full = await startSync(account, base, { ref: await source.head() });
    expect([full.status, full.body.error]).toEqual([400, '--ref takes a branch or tag, not a commit SHA']);
    const empty = await startSync(account, base, { ref: '' });
    expect([empty.status, empty.body.error]).toEqual([400, '--ref is empty; name a branch or tag, or leave --ref out to sync main']);
    const absent = await startSync(account, base, { ref: 'feature/nope' });
    expect([absent.status, absent.body.error]).toEqual([
      400,
      `Branch or tag "feature/nope" not found in ${source.dir} (its branches: main)`,
    ]);
    const unknown = await startSync(account, base, { ref: 'main', wait: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('wait');
    const bare = await server().newAccount();
    const deploymentId = await newDeployment(bare);
    const none = await startSync(bare, dbtBase(deploymentId), {});
    expect(none.status).toBe(400);
    expect(none.body.error).toContain('has no dbt integration');
    const status = await syncStatus(account, base, 2_000_000_000);
    expect([status.status, status.body.error]).toEqual([404, 'dbt sync 2000000000 not found']);
  });

  it('a repository gone by the time the job runs fails the sync at clone, saying it cannot be reached', async () => {
    const source = await sampleDbtRepo();
    const { account, base } = await connected(server(), source.dir);
    const started = await startSync(account, base);
    await rm(source.dir, { recursive: true, force: true });
    expect((await startSync(account, base)).body.error).toMatch(/cannot be reached/);
    await server().jobs.runUntilIdle();
    const failed = await syncStatus(account, base, started.body.syncJobId);
    expect(failed.body).toMatchObject({ status: 'FAILED', stage: 'clone', branchName: null });
    expect(failed.body.error).toMatch(/cannot be reached/);
    expect(failed.body.stages.map((s: { status: string }) => s.status)).toEqual(['failed', 'skipped', 'skipped', 'skipped', 'skipped']);
  });

  it('the result is a 409 until the sync has finished', async () => {
    const source = track(await sampleDbtRepo());
    const { account, base } = await connected(server(), source.dir);
    const started = await startSync(account, base);
    const early = await account.request({ method: 'GET', url: `${base}/syncs/${started.body.syncJobId}/result`, as: account.admin });
    expect(early.status).toBe(409);
    expect(early.body.error).toContain(`dbt sync ${started.body.syncJobId} is QUEUED`);
    await server().jobs.runUntilIdle();
    const result = await account.request({ method: 'GET', url: `${base}/syncs/${started.body.syncJobId}/result`, as: account.admin });
    expect(result.body.status).toBe('COMPLETED');
  });

  it('a sync whose job died (its process gone, out of attempts) reads FAILED with the reason, never RUNNING forever', async () => {
    const source = track(await sampleDbtRepo());
    const { account, base } = await connected(server(), source.dir);
    const started = await startSync(account, base);
    const row = (await server().services.dbt.repo.syncById(started.body.syncJobId))!;
    await server()
      .store.db.updateTable('job')
      .set({ state: 'dead', last_error: 'lease expired: the worker holding the job stopped heartbeating\n    at stack' })
      .where('id', '=', Number(row.job_id))
      .execute();
    await server().services.dbt.repo.update(row.id, { state: 'running' }, ['queued']);
    const status = await syncStatus(account, base, started.body.syncJobId);
    expect(status.body).toMatchObject({
      status: 'FAILED',
      error: 'The sync did not finish: lease expired: the worker holding the job stopped heartbeating',
    });
    expect(status.body.stages.map((s: { status: string }) => s.status)).toEqual(['failed', 'skipped', 'skipped', 'skipped', 'skipped']);
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
