import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';
import { modelClient, newDeployment } from './test-helpers.js';

describeOnStores('data-model branches, history and builds', (server) => {
  const setup = async () => {
    const account = await server().newAccount();
    const deploymentId = await newDeployment(server(), account);
    return { account, deploymentId, api: modelClient(account, deploymentId, account.admin) };
  };
  const builds = (deploymentId: number) =>
    server()
      .store.db.selectFrom('model_build')
      .select(['branch_name', 'commit_id', 'trigger'])
      .where('deployment_id', '=', deploymentId)
      .orderBy('id')
      .execute();

  it('lists every operation of the model part in the spec under the tag Data Model', async () => {
    const spec = await server().app.inject({ method: 'GET', url: '/api/v1/spec', headers: { host: (await server().newAccount()).host } });
    const doc = JSON.parse(spec.body);
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId: string; tags: string[] }>>)
      .flatMap((methods) => Object.values(methods))
      .filter((op) => op.tags?.includes('Data Model'))
      .map((op) => op.operationId);
    expect(ops).toEqual(expect.arrayContaining(cases.map((c) => c.operation)));
  });

  it('a shared branch and a dev-mode fork are one row each, whatever the model size; shared branches get a build', async () => {
    const { api, deploymentId } = await setup();
    await api.enter('main');
    for (let i = 0; i < 20; i++) await api.put(`model/cubes/c${i}.yml`, `cubes: [{name: c${i}}]\n`);
    await api.commit({ message: 'twenty cubes' });
    await api.exit();
    const count = async () => {
      const db = server().store.db;
      const n = async (table: 'model_blob' | 'model_tree' | 'model_commit') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      return [await n('model_blob'), await n('model_tree'), await n('model_commit')];
    };
    const before = await count();
    const created = await api.createBranch({ name: 'feature' });
    expect(created.body).toMatchObject({ name: 'feature', kind: 'shared', forkedFrom: 'main', isDefault: false, alwaysActive: false });
    const fork = await api.enter('feature');
    expect(fork.body.forkedFrom).toBe('feature');
    expect(await count()).toEqual(before);
    expect((await builds(deploymentId)).map((b) => [b.branch_name, b.trigger])).toEqual([
      ['main', 'create-branch'],
      ['main', 'commit'],
      ['feature', 'create-branch'],
    ]);
  });

  it('dev-mode on a shared branch forks anew each time; on an own dev branch it resumes; exit goes back to main', async () => {
    const { api } = await setup();
    const first = (await api.enter('main')).body.branchName;
    const second = (await api.enter('main')).body.branchName;
    expect(second).not.toBe(first);
    expect((await api.enter(first)).body).toMatchObject({ branchName: first, forkedFrom: 'main' });
    expect((await api.list()).body.branchName).toBe(first);
    expect((await api.exit()).body).toEqual({ active: false, branchName: first });
    expect((await api.exit()).body).toEqual({ active: false, branchName: null });
    expect((await api.list()).body.branchName).toBe('main');
    expect((await api.devMode()).body).toEqual({ active: false, branchName: null, forkedFrom: null });
  });

  it('deleting a dev branch closes the sessions on it; enable and disable toggle a shared branch only', async () => {
    const { api } = await setup();
    const dev = (await api.enter('main')).body.branchName;
    expect((await api.deleteBranch(dev)).body).toEqual({ branchName: dev, deleted: true });
    expect((await api.devMode()).body.active).toBe(false);
    await api.createBranch({ name: 'staging' });
    expect((await api.enable('staging')).body).toMatchObject({ name: 'staging', alwaysActive: true });
    expect((await api.disable('staging')).body).toMatchObject({ name: 'staging', alwaysActive: false });
    const devAgain = (await api.enter('staging')).body.branchName;
    expect((await api.enable(devAgain)).status).toBe(400);
  });

  it('pull brings the shared branch’s new commits into a dev branch and keeps its own edits', async () => {
    const { account, deploymentId, api } = await setup();
    const other = modelClient(account, deploymentId, await account.addUser('admin'));
    await api.enter('main');
    await api.put('model/mine.yml', 'mine\n');
    await other.enter('main');
    await other.put('model/theirs.yml', 'theirs\n');
    await other.commit({ message: 'theirs' });
    const pulled = await api.pull();
    expect(pulled.body).toMatchObject({ changed: true });
    expect((await api.list()).body.items.map((i: { path: string }) => i.path)).toEqual(['model/mine.yml', 'model/theirs.yml']);
    expect((await api.diff()).body.changes).toEqual([
      { path: 'model/mine.yml', change: 'added', oldHash: null, newHash: expect.any(String) },
    ]);
    expect((await api.pull()).body.changed).toBe(false);
  });

  it('merge and merge-to-default: production is rebuilt, the branch is deleted unless kept', async () => {
    const { api, deploymentId } = await setup();
    await api.createBranch({ name: 'feature' });
    await api.enter('feature');
    await api.put('model/f.yml', 'f\n');
    expect((await api.commit({ message: 'f' })).body.branchName).toBe('feature');
    await api.exit();
    expect((await api.diff('feature')).body).toMatchObject({
      base: { branchName: 'main' },
      changes: [{ path: 'model/f.yml', change: 'added' }],
    });
    await api.createBranch({ name: 'other' });
    const merged = await api.merge({ source: 'feature', target: 'other' });
    expect(merged.body).toMatchObject({ branchName: 'other', sourceBranch: 'feature', changed: true, buildId: expect.any(Number) });
    const kept = await api.mergeToDefault({ branch: 'other', keepBranch: true });
    expect(kept.body).toMatchObject({
      branchName: 'main',
      sourceBranch: 'other',
      changed: true,
      deletedBranch: false,
      buildId: expect.any(Number),
    });
    const again = await api.mergeToDefault({ branch: 'feature', message: 'ship' });
    expect(again.body).toMatchObject({ changed: false, buildId: null, deletedBranch: true });
    const shared = (await api.branches()).body.items.filter((b: { kind: string }) => b.kind === 'shared');
    expect(shared.map((b: { name: string }) => b.name)).toEqual(['main', 'other']);
    const mainBuilds = (await builds(deploymentId)).filter((b) => b.branch_name === 'main');
    expect(mainBuilds.map((b) => b.trigger)).toEqual(['create-branch', 'merge-to-default']);
    expect((await api.diff('main')).body.changes).toEqual([
      { path: 'model/f.yml', change: 'added', oldHash: null, newHash: expect.any(String) },
    ]);
  });

  it('history: newest first, with cursor pagination and authors', async () => {
    const { api, account } = await setup();
    await api.enter('main');
    for (const n of [1, 2, 3]) await api.put('model/a.yml', `v${n}\n`);
    const page = await api.commits({ first: '2' });
    expect(page.body.items.map((c: { message: string }) => c.message)).toEqual(['Put model/a.yml', 'Put model/a.yml']);
    expect(page.body.items[0]).toMatchObject({
      author: { kind: 'apiKey', credentialId: account.admin.apiKeyId, userId: account.admin.id },
    });
    expect(page.body.items[0].parentIds).toEqual([page.body.items[1].id]);
    expect(page.body.pageInfo.hasNextPage).toBe(true);
    const rest = await api.commits({ first: '2', after: page.body.pageInfo.endCursor });
    expect(rest.body.items.map((c: { message: string; author: { kind: string } }) => [c.message, c.author.kind])).toEqual([
      ['Put model/a.yml', 'apiKey'],
      ['Empty data model', 'system'],
    ]);
    expect(rest.body.pageInfo.hasNextPage).toBe(false);
  });

  it('commitTree: a head that moved is merged into by compare-and-swap; two writers never lose a commit', async () => {
    const { account, deploymentId, api } = await setup();
    await api.enter('main');
    const service = server().services.dataModel;
    const branch = await service.branch(account.id, deploymentId, (await api.devMode()).body.branchName);
    const [a, b] = await service.storeBlobs(account.id, ['a', 'b']);
    const results = await Promise.all([
      service.commitTree(null, branch, { entries: { 'model/a.yml': a! }, baseCommitId: branch.head_commit_id, message: 'a' }),
      service.commitTree(null, branch, { entries: { 'model/b.yml': b! }, baseCommitId: branch.head_commit_id, message: 'b' }),
    ]);
    expect(results.every((r) => r.changed)).toBe(true);
    expect(Object.keys((await api.hashes()).body.hashes)).toEqual(['model/a.yml', 'model/b.yml']);
    const deploy = await service.commitTree(null, branch, {
      entries: { 'model/a.yml': a!, 'model/b.yml': b! },
      baseCommitId: results[1]!.commitId,
      message: 'x',
      build: 'deploy',
    });
    expect(deploy).toMatchObject({ changed: false, buildId: expect.any(Number) });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
