import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';

const create = async (account: TestAccount, body: unknown = { name: 'd' }) =>
  (await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body })).body.id as number;
const put = (account: TestAccount, id: number, body: unknown) =>
  account.request({ method: 'PUT', url: `/api/v1/deployments/${id}`, as: account.admin, body });
const get = (account: TestAccount, path: string) => account.request({ method: 'GET', url: path, as: account.member });

describeOnStores(
  'deployments: update, delete, settings, steps, regions',
  (server) => {
    it('updateDeployment sets name, deployMode and creationMethod, keeps the rest, and settings reads them back', async () => {
      const account = await server().newAccount();
      const id = await create(account, { name: 'd', region: 'local' });
      const before = await get(account, `/api/v1/deployments/${id}/settings`);
      expect(before.body).toMatchObject({
        id,
        name: 'd',
        region: 'local',
        deployMode: null,
        creationMethod: null,
        releaseChannel: 'release',
        releaseChannelVersion: '1.2.0',
        image: 'plinth/engine:v1.2.0',
      });
      const updated = await put(account, id, { name: 'renamed', deployMode: 'cli', creationMethod: 'github' });
      expect(updated.status).toBe(200);
      // The host-based URL carries the name's slug (the id decides, so the old host keeps working).
      const deploymentUrl = before.body.deploymentUrl.replace(/\/\/[a-z0-9-]*-(\d+)\./, '//renamed-$1.');
      expect(updated.body).toEqual({ ...before.body, name: 'renamed', deployMode: 'cli', creationMethod: 'github', deploymentUrl });
      expect((await get(account, `/api/v1/deployments/${id}/settings`)).body).toEqual(updated.body);
      expect((await put(account, id, { deployMode: 'git' })).body).toMatchObject({
        name: 'renamed',
        deployMode: 'git',
        creationMethod: 'github',
      });
    });

    it.each([
      [{ colour: 'red' }, 'unknown property "colour"'],
      [{ deployMode: 'ftp' }, 'deployMode'],
      [{ creationMethod: 'gitlab' }, 'creationMethod'],
      [{ name: '' }, 'name'],
      [{ releaseChannel: 'nightly' }, 'releaseChannel "nightly" is not a channel of this server; channels: latest, release'],
    ])('updateDeployment refuses %j', async (body, message) => {
      const account = await server().newAccount();
      const response = await put(account, await create(account), body);
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(message);
    });

    it('deleteDeployment removes the deployment and what hangs off it; a second delete is 404', async () => {
      const account = await server().newAccount();
      const id = await create(account);
      await server().services.dataModel.branch(account.id, id, 'main');
      const deleted = await account.request({ method: 'DELETE', url: `/api/v1/deployments/${id}`, as: account.admin });
      expect(deleted.status).toBe(204);
      expect((await get(account, `/api/v1/deployments/${id}`)).status).toBe(404);
      expect((await get(account, `/api/v1/deployments/${id}/settings`)).status).toBe(404);
      const branches = await server().store.db.selectFrom('model_branch').select('id').where('deployment_id', '=', id).execute();
      expect(branches).toEqual([]);
      const again = await account.request({ method: 'DELETE', url: `/api/v1/deployments/${id}`, as: account.admin });
      expect(again.status).toBe(404);
      expect(again.body.error).toBe(`Deployment ${id} not found`);
    });

    it("deleteDeployment removes its embedded warehouse's file, closed first; another deployment's stays and still answers", async () => {
      const account = await server().newAccount();
      const [doomed, kept] = [await create(account), await create(account)];
      const { warehouses } = server().services.dataApi;
      for (const id of [doomed, kept])
        await warehouses.write(account.id, id, (warehouse) => warehouse.exec('create table t as select 1 as n'));
      // Open in this process when deleted, as a deployment being served is.
      expect((await (await warehouses.get(account.id, doomed)).query('select n from t', [])).rows).toEqual([{ n: 1 }]);
      expect(existsSync(warehouses.pathOf(doomed))).toBe(true);
      const deleted = await account.request({ method: 'DELETE', url: `/api/v1/deployments/${doomed}`, as: account.admin });
      expect(deleted.status).toBe(204);
      expect(existsSync(warehouses.pathOf(doomed))).toBe(false);
      expect(existsSync(`${warehouses.pathOf(doomed)}.wal`)).toBe(false);
      expect(existsSync(warehouses.pathOf(kept))).toBe(true);
      expect((await (await warehouses.get(account.id, kept)).query('select n from t', [])).rows).toEqual([{ n: 1 }]);
    });

    it('a missing deployment is 404 for every operation', async () => {
      const account = await server().newAccount();
      for (const [method, path] of [
        ['PUT', ''],
        ['GET', '/settings'],
        ['GET', '/versions'],
        ['POST', '/advance-step'],
        ['POST', '/reset-step'],
      ] as const) {
        const response = await account.request({
          method,
          url: `/api/v1/deployments/424242${path}`,
          as: account.admin,
          body: method === 'GET' ? undefined : {},
        });
        expect(response.status, `${method} ${path}`).toBe(404);
      }
    });

    it.each([
      [null, ['project', 'upload', 'databases', 'schema', 'ready']],
      ['github', ['project', 'github', 'databases', 'schema', 'ready']],
      ['ssh', ['project', 'ssh', 'databases', 'schema', 'ready']],
    ])(
      'creationStep with creationMethod %s moves through the reference steps; ready goes no further; reset starts again',
      async (method, steps) => {
        const account = await server().newAccount();
        const id = await create(account);
        if (method) await put(account, id, { creationMethod: method });
        const step = (verb: string) =>
          account.request({ method: 'POST', url: `/api/v1/deployments/${id}/${verb}`, as: account.admin, body: {} });
        const seen: string[] = [];
        for (let i = 0; i < steps.length; i++) {
          const response = await step('advance-step');
          expect(response.status).toBe(200);
          seen.push(response.body.creationStep);
        }
        expect(seen).toEqual(steps);
        const past = await step('advance-step');
        expect(past.status).toBe(409);
        expect(past.body.error).toContain('already at its last creation step');
        expect((await step('reset-step')).body.creationStep).toBe('project');
        expect((await get(account, `/api/v1/deployments/${id}`)).body.creationStep).toBe('project');
      },
    );

    it('regions lists the configured regions; create refuses another', async () => {
      const account = await server().newAccount();
      expect((await get(account, '/api/v1/regions')).body).toEqual({ items: [{ name: 'local' }, { name: 'eu-west-1' }] });
      const refused = await account.request({
        method: 'POST',
        url: '/api/v1/deployments',
        as: account.admin,
        body: { name: 'x', region: 'mars' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('Unknown region "mars"; regions: local, eu-west-1');
    });
  },
  { PLINTH_REGIONS: 'local,eu-west-1' },
);

describeOnStores('deployments: a version the server stopped offering', (server) => {
  it('stays listed as current while the deployment runs it, and switching to it again is refused', async () => {
    const account = await server().newAccount();
    const id = await create(account);
    // Pinned while the server offered it: written directly, as an older configuration would have.
    await server()
      .store.db.updateTable('deployment')
      .set({ release_channel: 'release', release_channel_version: '1.1.0' })
      .where('id', '=', id)
      .execute();
    const versions = await get(account, `/api/v1/deployments/${id}/versions`);
    expect(versions.body.items.filter((v: { current: boolean }) => v.current)).toEqual([
      { version: '1.1.0', channel: 'release', latest: false, current: true, passAs: 'plinth/engine:v1.1.0' },
    ]);
    const again = await put(account, id, { releaseChannelVersion: '1.1.0' });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('Version 1.1.0 is not offered on channel release; offered: 1.2.0');
  });
});
