import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { modelClient, newDeployment } from './test-helpers.js';

describeOnStores('data-model files', (server) => {
  const setup = async () => {
    const account = await server().newAccount();
    const deploymentId = await newDeployment(server(), account);
    return { account, deploymentId, api: modelClient(account, deploymentId, account.admin) };
  };

  it('a new deployment has the deploy branch main with an empty model', async () => {
    const { api } = await setup();
    const list = await api.list();
    expect(list.status, list.text).toBe(200);
    expect(list.body).toEqual({ branchName: 'main', commitId: expect.any(Number), items: [] });
  });

  it('put, get, list, hashes, rename and delete on a dev branch', async () => {
    const { api } = await setup();
    const dev = (await api.enter('main')).body;
    expect(dev).toEqual({
      active: true,
      branchName: expect.stringMatching(/^dev-[0-9a-f]{10}$/),
      forkedFrom: 'main',
      commitId: expect.any(Number),
    });
    const put = await api.put('model/cubes/orders.yml', 'cubes: []\n');
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({
      path: 'model/cubes/orders.yml',
      branchName: dev.branchName,
      commitId: expect.any(Number),
      hash: createHash('sha256').update('cubes: []\n').digest('hex'),
      size: 10,
      changed: true,
    });
    const got = await api.get('model/cubes/orders.yml');
    expect(got.body).toMatchObject({
      path: 'model/cubes/orders.yml',
      content: 'cubes: []\n',
      size: 10,
      hash: put.body.hash,
      commitId: put.body.commitId,
    });
    expect((await api.list()).body.items).toEqual([{ path: 'model/cubes/orders.yml', size: 10, hash: put.body.hash }]);
    expect((await api.hashes()).body).toEqual({
      branchName: dev.branchName,
      commitId: put.body.commitId,
      hashes: { 'model/cubes/orders.yml': put.body.hash },
    });

    const same = await api.put('model/cubes/orders.yml', 'cubes: []\n');
    expect(same.body).toMatchObject({ changed: false, commitId: put.body.commitId });
    expect((await api.commits()).body.items).toHaveLength(2);

    const renamed = await api.rename('model/cubes/orders.yml', 'model/cubes/sales.yml');
    expect(renamed.status, renamed.text).toBe(200);
    expect((await api.list()).body.items.map((i: { path: string }) => i.path)).toEqual(['model/cubes/sales.yml']);
    const deleted = await api.remove('model/cubes/sales.yml');
    expect(deleted.body).toEqual({ path: 'model/cubes/sales.yml', branchName: dev.branchName, commitId: expect.any(Number) });
    expect((await api.list()).body.items).toEqual([]);
  });
});
