import { expect, it } from 'vitest';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';

const KEYS = '/api/v1/api-keys';

/** Deployments N and M, and a key holding {ApiKeysManage, SchemaUpdate} (so SchemaRead too) on N only. */
async function setup(server: TestServer) {
  const account = await server.newAccount();
  const n = (await server.services.deployments.create(account.id, { name: 'n' }, 'http://localhost')).id;
  const m = (await server.services.deployments.create(account.id, { name: 'm' }, 'http://localhost')).id;
  const create = (as: TestAccount['admin'] | string, body: Record<string, unknown>) =>
    account.request({ method: 'POST', url: KEYS, as, body: { name: 'k', ...body } });
  const minter = await create(account.admin, { permissions: ['ApiKeysManage', 'SchemaUpdate'], deploymentIds: [n] });
  expect(minter.status, minter.text).toBe(201);
  return { account, n, m, create, minter: `Api-Key ${minter.body.key as string}`, minterId: minter.body.id as number };
}

describeOnStores('API keys with their own permissions', (server) => {
  it('a key with permissions never mints a wider one: no other permission, no other deployment, no role', async () => {
    const { account, n, m, create, minter } = await setup(server());
    const attempts: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ permissions: ['SchemaRead'], deploymentIds: [n] }, 201, /./],
      [{ permissions: ['SchemaUpdate', 'ApiKeysManage'], deploymentIds: [n] }, 201, /./],
      [
        { permissions: ['DeploymentUpdate'], deploymentIds: [n] },
        403,
        new RegExp(`does not grant DeploymentUpdate on deployment ${n} and cannot create an API key`),
      ],
      [{ permissions: ['SchemaUpdateDevBranches'], deploymentIds: [n] }, 403, /does not grant SchemaUpdateDevBranches/],
      // An umbrella implies what the minter lacks.
      [{ permissions: ['All'], deploymentIds: [n] }, 403, /does not grant/],
      [{ permissions: ['SchemaRead'], deploymentIds: [n, m] }, 403, new RegExp(`deployment ${m}`)],
      [{ permissions: ['SchemaRead'], deploymentIds: [m] }, 403, new RegExp(`deployment ${m}`)],
      [{ deploymentIds: [n] }, 403, /holds only its own permissions and cannot create an API key with a role/],
      [{ role: 'member', deploymentIds: [n] }, 403, /holds only its own permissions/],
      [{ permissions: ['SchemaRead'] }, 400, /name them in deploymentIds/],
      [{ permissions: ['SchemaRead'], deploymentIds: null }, 400, /name them in deploymentIds/],
      [{ permissions: ['SchemaRead', 'Teleport'], deploymentIds: [n] }, 400, /^Unknown permission "Teleport"; a key may hold /],
      [{ permissions: ['UserAccessManage'], deploymentIds: [n] }, 400, /Unknown permission "UserAccessManage"/],
      [{ permissions: [], deploymentIds: [n] }, 400, /permissions is empty/],
      [{ permissions: ['SchemaRead'], role: 'admin', deploymentIds: [n] }, 400, /either a role or permissions/],
    ];
    for (const [body, status, message] of attempts) {
      const response = await create(minter, body);
      expect(response.status, `${JSON.stringify(body)}: ${response.text}`).toBe(status);
      if (status !== 201) expect(response.body.error, JSON.stringify(body)).toMatch(message);
    }
    // It may revoke what it could have minted, not a key that reaches further.
    const narrower = await create(minter, { permissions: ['SchemaRead'], deploymentIds: [n] });
    expect((await account.request({ method: 'DELETE', url: `${KEYS}/${narrower.body.id}`, as: minter })).status).toBe(204);
    const wider = await create(account.admin, { permissions: ['DeploymentUpdate'], deploymentIds: [n] });
    expect((await account.request({ method: 'DELETE', url: `${KEYS}/${wider.body.id}`, as: minter })).status).toBe(403);
    expect((await account.request({ method: 'DELETE', url: `${KEYS}/${account.member.apiKeyId}`, as: minter })).status).toBe(403);
  });

  it('list shows permissions, and a key never holds more than its user does now', async () => {
    const { account, n, create, minterId } = await setup(server());
    const listed = await account.request({ method: 'GET', url: KEYS, as: account.admin });
    const row = listed.body.items.find((k: { id: number }) => k.id === minterId);
    expect(row).toMatchObject({ permissions: ['ApiKeysManage', 'SchemaUpdate'], deploymentIds: [n], role: 'member' });

    // An admin's key with DeploymentUpdate on N loses it when the admin is demoted, and keeps SchemaRead.
    const admin = await account.addUser('admin');
    const key = await create(admin, { permissions: ['DeploymentUpdate', 'SchemaRead'], deploymentIds: [n] });
    expect(key.status, key.text).toBe(201);
    const as = `Api-Key ${key.body.key as string}`;
    const variables = () =>
      account.request({ method: 'POST', url: `/api/v1/deployments/${n}/variables`, as, body: { variables: [{ name: 'A', value: 'b' }] } });
    const files = () => account.request({ method: 'GET', url: `/build/api/v1/deployments/${n}/files`, as });
    expect((await variables()).status).toBe(200);
    await server().store.db.updateTable('app_user').set({ role: 'member' }).where('id', '=', admin.id).execute();
    const refused = await variables();
    expect([refused.status, refused.body.error]).toEqual([403, `This credential does not grant DeploymentUpdate on deployment ${n}`]);
    expect((await files()).status).toBe(200);
  });
});
