import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';

const PG = [
  { name: 'CUBEJS_DB_TYPE', value: 'postgres' },
  { name: 'CUBEJS_DB_HOST', value: 'db.internal' },
  { name: 'CUBEJS_DB_NAME', value: 'shop' },
  { name: 'CUBEJS_DB_USER', value: 'reader' },
  { name: 'CUBEJS_DB_PASS', value: 'correct-horse' },
];

describeOnStores('deployment variables', (server) => {
  const deployment = async () => {
    const account = await server().newAccount();
    const created = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } });
    return { account, id: created.body.id as number, url: `/api/v1/deployments/${created.body.id}/variables` };
  };
  const set = (account: TestAccount, url: string, variables: unknown) =>
    account.request({ method: 'POST', url, as: account.admin, body: { variables } });
  const list = (account: TestAccount, url: string) => account.request({ method: 'GET', url, as: account.member });

  it('sets, lists masked and unsets; the warehouse follows the variables', async () => {
    const { account, id, url } = await deployment();
    expect((await list(account, url)).body).toEqual({ items: [] });
    expect(await server().services.deploymentVariables.warehouseConfig(account.id, id)).toEqual({ type: 'duckdb', path: null });

    const response = await set(account, url, [
      ...PG,
      { name: 'LABEL', value: 'shown' },
      { name: 'HIDDEN', value: 'abcdefgh', secret: true },
    ]);
    expect(response.status).toBe(200);
    const listed = await list(account, url);
    expect(listed.body).toEqual(response.body);
    expect(listed.body.items.map((v: any) => [v.name, v.value, v.secret])).toEqual([
      ['CUBEJS_DB_HOST', 'db.internal', false],
      ['CUBEJS_DB_NAME', 'shop', false],
      ['CUBEJS_DB_PASS', '****', true],
      ['CUBEJS_DB_TYPE', 'postgres', false],
      ['CUBEJS_DB_USER', 'reader', false],
      ['HIDDEN', '****', true],
      ['LABEL', 'shown', false],
    ]);
    expect(listed.body.items[0].updatedAt).toEqual(expect.any(String));
    expect(await server().services.deploymentVariables.warehouseConfig(account.id, id)).toMatchObject({
      type: 'postgres',
      host: 'db.internal',
      password: 'correct-horse',
    });

    const unset = await account.request({ method: 'DELETE', url: `${url}/LABEL`, as: account.admin });
    expect(unset.status).toBe(204);
    expect((await list(account, url)).body.items.map((v: any) => v.name)).not.toContain('LABEL');
  });

  it('stores values sealed: the table never holds a value in clear', async () => {
    const { account, url } = await deployment();
    await set(account, url, [{ name: 'CUBEJS_DB_PASS', value: 'correct-horse-battery' }]);
    const rows = await server().store.db.selectFrom('deployment_variable').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain('correct-horse-battery');
  });

  it.each([
    ['an unknown warehouse type', [{ name: 'CUBEJS_DB_TYPE', value: 'mysql' }], 'CUBEJS_DB_TYPE must be one of duckdb, postgres'],
    ['postgres without a host', PG.filter((v) => v.name !== 'CUBEJS_DB_HOST'), 'CUBEJS_DB_HOST must be set'],
    ['a non-numeric port', [...PG, { name: 'CUBEJS_DB_PORT', value: 'abc' }], 'CUBEJS_DB_PORT must be a whole number'],
    ['a lower-case name', [{ name: 'lower', value: 'x' }], 'Variable name "lower" must be upper-case'],
    [
      'a name given twice',
      [
        { name: 'A', value: '1' },
        { name: 'A', value: '2' },
      ],
      'Variable A is given more than once',
    ],
    ['an empty value', [{ name: 'A', value: '' }], 'value'],
    ['a value over 64 KiB', [{ name: 'A', value: 'é'.repeat(40_000) }], 'Variable A is larger than 64 KiB'],
    ['an unknown field', [{ name: 'A', value: 'x', masked: true }], 'masked'],
    ['no variables', [], 'variables'],
  ])('refuses %s with 400 and stores nothing', async (_, variables, message) => {
    const { account, url } = await deployment();
    const response = await set(account, url, variables);
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(message);
    expect((await list(account, url)).body.items).toEqual([]);
  });

  it('checks the combination as a whole: unsetting the host of a postgres warehouse is refused', async () => {
    const { account, url } = await deployment();
    expect((await set(account, url, PG)).status).toBe(200);
    const refused = await account.request({ method: 'DELETE', url: `${url}/CUBEJS_DB_HOST`, as: account.admin });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('CUBEJS_DB_HOST must be set when CUBEJS_DB_TYPE is postgres');
    expect((await set(account, url, [{ name: 'CUBEJS_DB_TYPE', value: 'duckdb' }])).status).toBe(200);
    expect((await account.request({ method: 'DELETE', url: `${url}/CUBEJS_DB_HOST`, as: account.admin })).status).toBe(204);
  });

  it('concurrent changes are checked one after the other, so the stored combination stays valid', async () => {
    const { account, id, url } = await deployment();
    expect(
      (
        await set(
          account,
          url,
          PG.filter((v) => v.name !== 'CUBEJS_DB_TYPE'),
        )
      ).status,
    ).toBe(200);
    const [typed, unset] = await Promise.all([
      set(account, url, [{ name: 'CUBEJS_DB_TYPE', value: 'postgres' }]),
      account.request({ method: 'DELETE', url: `${url}/CUBEJS_DB_HOST`, as: account.admin }),
    ]);
    // Whichever ran first succeeded and the second then saw its result and was refused.
    expect([typed.status, unset.status].filter((status) => status === 400)).toHaveLength(1);
    await expect(server().services.deploymentVariables.warehouseConfig(account.id, id)).resolves.toBeDefined();
  });

  it('404s: an unknown variable, an unknown deployment; a bad name in the path is 400', async () => {
    const { account, url } = await deployment();
    const missing = await account.request({ method: 'DELETE', url: `${url}/NOPE`, as: account.admin });
    expect(missing).toMatchObject({ status: 404, body: { error: 'Variable NOPE not found' } });
    const bad = await account.request({ method: 'DELETE', url: `${url}/no-pe`, as: account.admin });
    expect(bad.status).toBe(400);
    for (const request of [
      { method: 'GET' as const, url: '/api/v1/deployments/424242/variables' },
      { method: 'POST' as const, url: '/api/v1/deployments/424242/variables', body: { variables: [{ name: 'A', value: 'x' }] } },
      { method: 'DELETE' as const, url: '/api/v1/deployments/424242/variables/A' },
    ]) {
      expect(await account.request({ ...request, as: account.admin })).toMatchObject({
        status: 404,
        body: { error: 'Deployment 424242 not found' },
      });
    }
  });

  it("a change queues a rebuild of the deploy branch's head with trigger 'variables'; no change, no rebuild", async () => {
    const { account, id, url } = await deployment();
    const builds = () =>
      server()
        .store.db.selectFrom('model_build')
        .select(['trigger', 'branch_name', 'commit_id'])
        .where('deployment_id', '=', id)
        .where('trigger', '=', 'variables')
        .execute();
    await set(account, url, [{ name: 'A', value: '1' }]);
    const main = await server().services.dataModel.branch(account.id, id, 'main');
    expect(await builds()).toEqual([{ trigger: 'variables', branch_name: 'main', commit_id: main.head_commit_id }]);
    await set(account, url, [{ name: 'A', value: '1' }]);
    expect(await builds()).toHaveLength(1);
    await set(account, url, [{ name: 'A', value: '2' }]);
    await account.request({ method: 'DELETE', url: `${url}/A`, as: account.admin });
    expect(await builds()).toHaveLength(3);
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
