import { expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { modelClient, newDeployment } from './test-helpers.js';

const notDev = (deploymentId: number, name: string) =>
  `Branch ${name} is not a dev-mode branch; run plinth data-model dev-mode ${deploymentId} ${name} to get one`;

describeOnStores('data-model rules', (server) => {
  const setup = async () => {
    const account = await server().newAccount();
    const deploymentId = await newDeployment(server(), account);
    return { account, deploymentId, api: modelClient(account, deploymentId, account.admin) };
  };

  it('writes are accepted only on dev-… branches, with the exact message elsewhere', async () => {
    const { api, deploymentId } = await setup();
    expect((await api.createBranch({ name: 'feature' })).status).toBe(201);
    for (const branch of ['main', 'feature']) {
      for (const response of [
        await api.put('model/a.yml', 'x', branch),
        await api.remove('model/a.yml', branch),
        await api.rename('model/a.yml', 'model/b.yml', branch),
      ]) {
        expect(response.status, response.text).toBe(400);
        expect(response.body.error).toBe(notDev(deploymentId, branch));
      }
    }
    // Without a session, an omitted branch is the deploy branch.
    expect((await api.put('model/a.yml', 'x')).body.error).toBe(notDev(deploymentId, 'main'));
  });

  it('create-branch --dev-mode points the session at the branch without a fork; writes to it are refused', async () => {
    const { api, deploymentId, account } = await setup();
    const created = await api.createBranch({ name: 'preview', devMode: true });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'preview', branchName: 'preview', kind: 'shared', devMode: true, forkedFrom: 'main' });
    expect((await api.devMode()).body).toEqual({ active: true, branchName: 'preview', forkedFrom: 'main' });
    expect((await api.branches()).body.items.map((b: { name: string }) => b.name)).toEqual(['main', 'preview']);
    const put = await api.put('model/a.yml', 'x', '');
    expect(put.status).toBe(400);
    expect(put.body.error).toBe(notDev(deploymentId, 'preview'));
    // No build queued: build status reports dev_mode for it.
    const builds = await server()
      .store.db.selectFrom('model_build')
      .select('branch_name')
      .where('deployment_id', '=', deploymentId)
      .execute();
    expect(builds.map((b) => b.branch_name)).toEqual(['main']);
    const status = await account.request({
      method: 'GET',
      url: `/api/v1/deployments/${deploymentId}/build-status?branch=preview`,
      as: account.admin,
    });
    expect(status.body).toMatchObject({ branchName: 'preview', status: 'dev_mode', buildId: null });
  });

  it("empty values (4.8 rule 4): dev-mode and delete-branch refuse ''; put and commit with branch '' act on the session", async () => {
    const { api } = await setup();
    const enter = await api.enter('');
    expect(enter.status).toBe(400);
    expect(enter.body.error).toMatch(/branch is empty/);
    const del = await api.call('DELETE', '/branches/');
    expect(del.status).toBe(400);
    const dev = (await api.enter('main')).body.branchName;
    const put = await api.put('model/a.yml', 'a: 1\n', '');
    expect(put.body).toMatchObject({ branchName: dev, changed: true });
    const commit = await api.commit({ branch: '', message: 'first' });
    expect(commit.status, commit.text).toBe(200);
    expect(commit.body).toMatchObject({ branchName: 'main', sourceBranch: dev, changed: true, buildId: expect.any(Number) });
    expect((await api.get('model/a.yml', 'main')).body.content).toBe('a: 1\n');
  });

  it('conflicting edits are a 409 naming the files, and nothing is written; edits to different files merge cleanly', async () => {
    const { account, deploymentId, api } = await setup();
    const other = modelClient(account, deploymentId, await account.addUser('admin'));
    await api.enter('main');
    await api.put('model/shared.yml', 'base\n');
    await api.commit({ message: 'base' });
    await other.enter('main');
    await api.put('model/shared.yml', 'mine\n');
    await api.put('model/mine.yml', 'mine\n');
    await other.put('model/shared.yml', 'theirs\n');
    await other.put('model/theirs.yml', 'theirs\n');
    expect((await api.commit({ message: 'mine' })).status).toBe(200);
    const mainBefore = (await api.hashes('main')).body;
    const refused = await other.commit({ message: 'theirs' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflict', conflicts: ['model/shared.yml'] });
    expect(refused.body.error).toBe(`Conflicting changes to model/shared.yml on branch main`);
    expect((await api.hashes('main')).body).toEqual(mainBefore);

    // The other side drops its edit of the shared file: the rest merges with what main gained.
    await other.put('model/shared.yml', 'base\n');
    const merged = await other.commit({ message: 'theirs' });
    expect(merged.status, merged.text).toBe(200);
    const files = (await api.list('main')).body.items.map((i: { path: string }) => i.path);
    expect(files).toEqual(['model/mine.yml', 'model/shared.yml', 'model/theirs.yml']);
    expect((await api.get('model/shared.yml', 'main')).body.content).toBe('mine\n');
  });

  it('two credentials in dev mode at once never see each other’s dev branches or edits', async () => {
    const { account, deploymentId, api } = await setup();
    const other = modelClient(account, deploymentId, `Bearer ${await account.accessToken(account.admin)}`);
    const mine = (await api.enter('main')).body.branchName;
    const theirs = (await other.enter('main')).body.branchName;
    expect(mine).not.toBe(theirs);
    await api.put('model/secret.yml', 'mine\n');
    expect((await other.list()).body).toMatchObject({ branchName: theirs, items: [] });
    expect((await other.get('model/secret.yml', mine)).body.error).toBe(`Branch ${mine} not found`);
    expect((await other.list(mine)).status).toBe(404);
    expect((await other.branches()).body.items.map((b: { name: string }) => b.name)).toEqual(['main', theirs]);
    expect((await other.enter(mine)).status).toBe(404);
    expect((await other.deleteBranch(mine)).status).toBe(404);
    expect((await other.devMode()).body.branchName).toBe(theirs);
  });

  it.each([
    ['../etc/passwd', 'it has a ".." segment'],
    ['model/../../x.yml', 'it has a ".." segment'],
    ['/etc/passwd', 'it is absolute'],
    ['model/a\u0000.yml', 'it contains a NUL byte'],
    ['model\\a.yml', 'it contains a backslash'],
    ['model//a.yml', 'it has an empty segment'],
    ['model/./a.yml', 'it has a "." segment'],
    ['model/a\n.yml', 'it contains a control character'],
    ['', 'it is empty'],
    ['a'.repeat(513), 'it is longer than 512 characters'],
  ])('path %j is refused with 400 (%s)', async (path, reason) => {
    const { api } = await setup();
    await api.enter('main');
    for (const response of [await api.put(path, 'x'), await api.get(path), await api.remove(path), await api.rename('model/a.yml', path)]) {
      expect(response.status, response.text).toBe(400);
      // NUL is refused before the route by the server's input guard, in its own words.
      expect(response.body.error).toContain(path.includes('\u0000') ? 'NUL' : `Invalid path ${JSON.stringify(path)}: ${reason}`);
    }
  });

  it.each([
    ['-x', 'it may not start with - or /'],
    ['a..b', 'it may not contain ..'],
    ['a//b', 'it may not contain //'],
    ['a/', 'it may not end with /'],
    ['x.lock', 'it may not end with .lock'],
    ['with space', 'it may contain only letters'],
    ['nul\u0000', 'NUL'],
    ['é', 'it may contain only letters'],
    ['a'.repeat(101), 'it is longer than 100 characters'],
  ])('branch name %j is refused with 400 (%s)', async (name, rule) => {
    const { api } = await setup();
    for (const response of [await api.createBranch({ name }), await api.list(name), await api.enter(name)]) {
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toContain(rule);
    }
  });

  it('names starting with dev- are reserved; a taken name is 409; the deploy branch stays', async () => {
    const { api, deploymentId } = await setup();
    expect((await api.createBranch({ name: 'dev-mine' })).body.error).toMatch(/reserved for dev-mode branches/);
    expect((await api.createBranch({ name: 'main' })).status).toBe(409);
    expect((await api.createBranch({ name: 'feature/x' })).status).toBe(201);
    expect((await api.createBranch({ name: 'feature/x' })).body.error).toBe('Branch feature/x already exists');
    expect((await api.createBranch({ name: 'y', from: 'nope' })).status).toBe(404);
    const main = await api.deleteBranch('main');
    expect(main.status).toBe(400);
    const upstream = await api.deleteBranch('feature/x', { removeOnUpstream: 'true' });
    expect(upstream.body.error).toBe(
      `Deployment ${deploymentId} is not connected to a Git repository; there is no upstream branch to remove`,
    );
    expect((await api.deleteBranch('feature/x')).body).toEqual({ branchName: 'feature/x', deleted: true });
    expect((await api.deleteBranch('feature/x')).status).toBe(404);
  });

  it('limits: a file over 1 MiB is 413, content with NUL is 400, a model over 5,000 files is 422', async () => {
    const { api, account, deploymentId } = await setup();
    await api.enter('main');
    const big = await api.put('model/big.yml', 'x'.repeat(1024 * 1024 + 1));
    expect(big.status).toBe(413);
    const service = server().services.dataModel;
    await expect(service.storeBlobs(account.id, ['y'.repeat(1024 * 1024 + 1)])).rejects.toMatchObject({ status: 413 });
    const nul = await api.put('model/a.yml', 'a\u0000b');
    expect(nul.status).toBe(400);
    const [hash] = await service.storeBlobs(account.id, ['same']);
    const entries = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`model/f${i}.yml`, hash!]));
    const branch = await service.target(
      {
        kind: 'apiKey',
        accountId: account.id,
        credentialId: account.admin.apiKeyId,
        userId: account.admin.id,
        role: 'admin',
        deploymentIds: null,
      },
      deploymentId,
    );
    await expect(
      service.commitTree(null, branch, { entries, baseCommitId: branch.head_commit_id, message: 'too many' }),
    ).rejects.toMatchObject({
      status: 422,
      code: 'limit_exceeded',
    });
    const unknown = service.commitTree(null, branch, {
      entries: { 'model/a.yml': 'f'.repeat(64) },
      baseCommitId: branch.head_commit_id,
      message: 'x',
    });
    await expect(unknown).rejects.toMatchObject({ status: 400 });
  });

  it('bad input never answers 500', async () => {
    const { api } = await setup();
    for (const response of [
      await api.commits({ after: 'zzz' }),
      await api.commits({ first: '0' }),
      await api.call('PUT', '/files/content', { path: 'a', content: 5 }),
      await api.call('PUT', '/files/content', 'not json'),
      await api.call('POST', '/branches', { name: 'x', extra: 1 }),
      await api.commit({ message: 'x' }),
      await api.pull(),
      await api.merge({ source: 'main', target: 'main' }),
      await api.mergeToDefault({ branch: 'main' }),
      await api.mergeToDefault({ branch: '' }),
      await api.enable('nope'),
      await api.call('GET', '/files?branch=%00'),
      await api.call('GET', '/files/content?path=%ED%A0%80'),
      await api.call('POST', '/commit', { message: 'a\u0000' }),
    ]) {
      expect(response.status, response.text).toBeGreaterThanOrEqual(400);
      expect(response.status, response.text).toBeLessThan(500);
    }
    const other = await server().newAccount();
    expect((await modelClient(other, 999999, other.admin).list()).status).toBe(404);
  });
});
