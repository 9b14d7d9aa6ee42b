import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';
import { adminOf, commitFiles, createBranch, enterDevMode, newDeployment } from './test-fixtures.js';
import { BROKEN_CUBE, countCube } from '../../test-support/models.js';

const get = (account: TestAccount, url: string) => account.request({ method: 'GET', url, as: account.admin });
const post = (account: TestAccount, url: string, body: unknown = {}) => account.request({ method: 'POST', url, as: account.admin, body });

async function setUp(server: TestServer, files: Record<string, string> = { 'model/cubes/orders.yml': countCube('orders') }) {
  const account = await server.newAccount();
  const deploymentId = await newDeployment(account);
  const commit = await commitFiles(server.services, adminOf(account), deploymentId, files);
  return { account, deploymentId, commit, base: `/api/v1/deployments/${deploymentId}` };
}

const logsOf = (server: TestServer, buildId: number) =>
  server.store.db.selectFrom('build_log').selectAll().where('build_id', '=', buildId).orderBy('id').execute();

describeOnStores('builds', (server) => {
  it('a commit to main queues a build that reads building, then built with its cubes, and logs as builder', async () => {
    const { account, base, commit } = await setUp(server(), { 'model/cubes/a.yml': countCube('a'), 'model/cubes/b.yml': countCube('b') });
    expect(commit.buildId).toEqual(expect.any(Number));
    const before = await get(account, `${base}/build-status`);
    expect(before.body).toMatchObject({ status: 'building', buildId: commit.buildId, commitId: commit.commitId, branchName: 'main' });
    await server().jobs.runUntilIdle();
    const after = await get(account, `${base}/build-status?branch=main`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ status: 'built', cubesCount: 2, errors: [], trigger: 'deploy', startedAt: expect.any(String) });
    const logs = await logsOf(server(), commit.buildId!);
    expect(logs.map((l) => l.message)).toEqual([
      `Build ${commit.buildId} of main at commit ${commit.commitId}: compiling 2 files`,
      `Build ${commit.buildId}: built, 2 cubes`,
    ]);
    expect(logs[0]).toMatchObject({ source: 'production', container: 'builder', pod: server().jobs.workerId });
  });

  it("a model that does not compile fails with the compiler's errors, one log line each", async () => {
    const { account, base, commit } = await setUp(server(), { 'model/cubes/broken.yml': BROKEN_CUBE });
    await server().jobs.runUntilIdle();
    const status = await get(account, `${base}/build-status`);
    expect(status.body.status).toBe('failed');
    expect(status.body.errors.length).toBeGreaterThan(0);
    expect(status.body.errors[0]).toMatchObject({ fileName: 'model/cubes/broken.yml', message: expect.any(String) });
    const messages = (await logsOf(server(), commit.buildId!)).map((l) => l.message);
    expect(messages.filter((m) => m.startsWith('model/cubes/broken.yml')).length).toBe(status.body.errors.length);
  });

  it('a newer build of a branch supersedes an older one still queued, whose job is cancelled', async () => {
    const { account, deploymentId, base, commit: first } = await setUp(server());
    const second = await commitFiles(server().services, adminOf(account), deploymentId, { 'model/cubes/x.yml': countCube('x') });
    const old = await get(account, `${base}/builds/${first.buildId}`);
    expect(old.body.status).toBe('cancelled');
    await server().jobs.runUntilIdle();
    expect((await get(account, `${base}/builds/${second.buildId}`)).body.status).toBe('built');
    expect(await logsOf(server(), first.buildId!)).toEqual([]);
  });

  it('lists builds newest first with cursors, and refuses a foreign cursor', async () => {
    const { account, base, commit } = await setUp(server());
    const rebuilt = await post(account, `${base}/builds`, { branch: 'main' });
    expect(rebuilt.status).toBe(201);
    expect(rebuilt.body).toMatchObject({ status: 'building', trigger: 'rebuild', commitId: commit.commitId });
    const page1 = await get(account, `${base}/builds?first=1`);
    expect(page1.body.branchName).toBe('main');
    expect(page1.body.items.map((b: { buildId: number }) => b.buildId)).toEqual([rebuilt.body.buildId]);
    expect(page1.body.pageInfo.hasNextPage).toBe(true);
    const page2 = await get(account, `${base}/builds?first=10&after=${page1.body.pageInfo.endCursor}`);
    expect(page2.body.items[0].buildId).toBe(commit.buildId);
    const bad = await get(account, `${base}/builds?after=zzz`);
    expect(bad.status).toBe(400);
    await server().jobs.runUntilIdle();
  });

  it('cancels a queued build; a finished one is a 409; an unknown one a 404', async () => {
    const { account, base, commit } = await setUp(server());
    const cancelled = await post(account, `${base}/builds/${commit.buildId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const again = await post(account, `${base}/builds/${commit.buildId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(`Build ${commit.buildId} is already cancelled; only a build still building can be cancelled`);
    expect((await get(account, `${base}/builds/2147483000`)).status).toBe(404);
    await server().jobs.runUntilIdle();
    expect((await get(account, `${base}/builds/${commit.buildId}`)).body.status).toBe('cancelled');
  });

  it('a dev branch whose head has no build reads dev_mode; a branch created with devMode too', async () => {
    const { account, deploymentId, base } = await setUp(server());
    const dev = await enterDevMode(account, deploymentId);
    const status = await get(account, `${base}/build-status`);
    expect(status.body).toMatchObject({ status: 'dev_mode', buildId: null, branchName: dev, errors: [] });
    await createBranch(account, deploymentId, 'feature-x', true);
    expect((await get(account, `${base}/build-status?branch=feature-x`)).body.status).toBe('dev_mode');
    const other = await account.request({ method: 'GET', url: `${base}/build-status?branch=${dev}`, as: account.member });
    expect(other.status).toBe(404);
    await server().jobs.runUntilIdle();
  });

  it("a dev branch's build (a deploy to it) logs as source dev, and build status reports it instead of dev_mode", async () => {
    const { account, deploymentId, base } = await setUp(server());
    const dev = await enterDevMode(account, deploymentId);
    const { buildId } = await commitFiles(server().services, adminOf(account), deploymentId, { 'model/cubes/d.yml': countCube('d') }, dev);
    await server().jobs.runUntilIdle();
    expect((await get(account, `${base}/build-status`)).body).toMatchObject({ status: 'built', buildId, branchName: dev, cubesCount: 1 });
    const logs = await logsOf(server(), buildId!);
    expect(logs.map((l) => l.source)).toEqual(['dev', 'dev']);
  });

  it('a missing branch is a 404 naming it', async () => {
    const { account, base } = await setUp(server());
    const missing = await get(account, `${base}/build-status?branch=nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toContain('nope');
    await server().jobs.runUntilIdle();
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
