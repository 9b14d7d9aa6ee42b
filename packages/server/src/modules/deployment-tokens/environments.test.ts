import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import type { AccountRow } from '../../store/schema.js';
import { TEST_BASE_DOMAIN, describeOnStores, type TestAccount, type TestUser } from '../../test-support/server.js';

const deployment = async (account: TestAccount) =>
  (await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } })).body.id as number;

const build = (id: number) => `/build/api/v1/deployments/${id}`;

/** A deployment with a staging branch enabled, a shared branch not enabled, and a dev branch of each of two admins. */
async function withBranches(account: TestAccount) {
  const id = await deployment(account);
  const post = (url: string, body: unknown, as: TestUser = account.admin) => account.request({ method: 'POST', url, as, body });
  expect((await post(`${build(id)}/branches`, { name: 'staging' })).status).toBe(201);
  expect((await post(`${build(id)}/branches`, { name: 'draft' })).status).toBe(201);
  expect((await post(`${build(id)}/branches/staging/enable`, {})).status).toBe(200);
  const mine = await post(`${build(id)}/dev-mode`, { branch: 'main' });
  expect(mine.status, mine.text).toBe(200);
  const theirs = await post(`${build(id)}/dev-mode`, { branch: 'main' }, await account.addUser('admin'));
  expect(theirs.status, theirs.text).toBe(200);
  return { id, devBranch: mine.body.branchName as string, theirDevBranch: theirs.body.branchName as string };
}

const environments = (account: TestAccount, id: number, query = '', as: TestUser = account.admin) =>
  account.request({ method: 'GET', url: `/api/v1/deployments/${id}/environments${query}`, as });

describeOnStores('deployment environments', (server) => {
  describe('getDeploymentEnvironments', () => {
    it('production, enabled staging and the caller’s own development environments, with their API credentials', async () => {
      const account = await server().newAccount();
      const { id, devBranch, theirDevBranch } = await withBranches(account);
      const response = await environments(account, id);
      expect(response.status, response.text).toBe(200);
      // Host-based: the test server sets PLINTH_BASE_DOMAIN, and the deployment is named "d".
      const root = `http://d-${id}.${TEST_BASE_DOMAIN}`;
      // Beside the REST credential, the SQL API's: the environment's own user and password, on the deployment's database.
      const sql = {
        type: 'sql',
        version: 1,
        url: expect.stringMatching(new RegExp(`^postgresql://env_\\d+@[^/]+:15432/deployment-${id}$`)),
        host: expect.any(String),
        port: 15432,
        database: `deployment-${id}`,
        user: expect.stringMatching(/^env_\d+$/),
        password: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      };
      const rest = (url: string) => [{ type: 'rest', version: 1, url, host: null, port: null, database: null }, sql];
      expect(response.body.data).toEqual([
        { id: expect.any(String), type: 'production', branch: 'main', user: null, api_credentials: rest(`${root}/cubejs-api/v1`) },
        {
          id: expect.any(String),
          type: 'development',
          branch: devBranch,
          user: null,
          api_credentials: rest(`${root}/dev-mode/${encodeURIComponent(devBranch)}/cubejs-api/v1`),
        },
        {
          id: expect.any(String),
          type: 'staging',
          branch: 'staging',
          user: null,
          api_credentials: rest(`${root}/dev-mode/staging/cubejs-api/v1`),
        },
      ]);
      expect(JSON.stringify(response.body)).not.toContain(theirDevBranch);
      const again = await environments(account, id);
      const sqlOf = (body: { data: Array<{ api_credentials: Array<{ type: string; user?: string }> }> }) =>
        body.data.map((e) => e.api_credentials.find((c) => c.type === 'sql'));
      expect(sqlOf(again.body)).toEqual(sqlOf(response.body));
      expect(new Set(sqlOf(response.body).map((c) => c?.user)).size).toBe(3);
      expect(response.body.pagination).toEqual({ total: 3, offset: 0, limit: 100 });
      const staging = await environments(account, id, '?type=staging');
      expect(staging.body.data.map((e: { branch: string }) => e.branch)).toEqual(['staging']);
      const page = await environments(account, id, '?offset=1&limit=1');
      expect(page.body).toMatchObject({ data: [{ type: 'development' }], pagination: { total: 3, offset: 1, limit: 1 } });
    });

    it.each([['?type=qa'], ['?offset=-1'], ['?limit=x'], ['?first=2']])('400 for %s', async (query) => {
      const account = await server().newAccount();
      const response = await environments(account, await deployment(account), query);
      expect(response.status).toBe(400);
    });

    it('404 for a missing deployment; a member may list', async () => {
      const account = await server().newAccount();
      expect((await environments(account, 424242)).status).toBe(404);
      expect((await environments(account, await deployment(account), '', account.member)).status).toBe(200);
    });
  });

  describe('environment tokens', () => {
    it('creates tokens (also for meta sync) that the data API verifies, and lists them', async () => {
      const account = await server().newAccount();
      const { id } = await withBranches(account);
      const staging = (await environments(account, id, '?type=staging')).body.data[0];
      const url = `/api/v1/deployments/${id}/environments/${staging.id}`;
      const created = await account.request({
        method: 'POST',
        url: `${url}/tokens`,
        as: account.admin,
        body: { security_context: { tenant: 'acme' }, expires_in: 600 },
      });
      expect(created.status, created.text).toBe(200);
      expect(created.body.data).toEqual({
        token: expect.any(String),
        security_context: { tenant: 'acme' },
        created_at: expect.any(String),
        expires_at: expect.any(String),
      });
      const claims = decodeJwt(created.body.data.token);
      expect(claims).toMatchObject({ deploymentId: id, environment: staging.id, securityContext: { tenant: 'acme' } });
      expect(claims.exp! - claims.iat!).toBe(600);
      const row = (await server()
        .store.db.selectFrom('account')
        .selectAll()
        .where('id', '=', account.id)
        .executeTakeFirstOrThrow()) as AccountRow;
      const principal = await server().app.credentialVerifiers.dataToken!(row, created.body.data.token);
      expect(principal).toMatchObject({ kind: 'dataToken', claims: { deploymentId: id, securityContext: { tenant: 'acme' } } });

      const meta = await account.request({
        method: 'POST',
        url: `${url}/tokens-for-meta-sync`,
        as: account.admin,
        body: { security_context: {} },
      });
      expect(meta.status, meta.text).toBe(200);
      expect(decodeJwt(meta.body.data.token).exp! - decodeJwt(meta.body.data.token).iat!).toBe(3600);

      const listed = await account.request({ method: 'GET', url: `${url}/tokens`, as: account.admin });
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((t: { token: string }) => t.token)).toEqual([created.body.data.token, meta.body.data.token]);
      expect(listed.body.pagination).toEqual({ total: 2, offset: 0, limit: 100 });
    });

    it.each([
      [{}, /security_context/],
      [{ security_context: null }, /security_context/],
      [{ security_context: {}, expires_in: 3601 }, /expires_in/],
      [{ security_context: {}, scopes: ['meta'] }, /scopes are not supported/],
      [{ security_context: {}, extra: 1 }, /extra/],
    ])('rejects %j naming the field', async (body, message) => {
      const account = await server().newAccount();
      const id = await deployment(account);
      const production = (await environments(account, id)).body.data[0];
      const response = await account.request({
        method: 'POST',
        url: `/api/v1/deployments/${id}/environments/${production.id}/tokens`,
        as: account.admin,
        body,
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(message);
    });

    it('404 for an environment that is not the caller’s: unknown, a disabled branch, another user’s dev branch', async () => {
      const account = await server().newAccount();
      const { id, theirDevBranch } = await withBranches(account);
      const rows = await server().store.db.selectFrom('model_branch').select(['id', 'name']).where('deployment_id', '=', id).execute();
      const byName = Object.fromEntries(rows.map((r) => [r.name, r.id]));
      for (const environmentId of [999999, byName.draft, byName[theirDevBranch]]) {
        const response = await account.request({
          method: 'POST',
          url: `/api/v1/deployments/${id}/environments/${environmentId}/tokens`,
          as: account.admin,
          body: { security_context: {} },
        });
        expect(response.status, String(environmentId)).toBe(404);
      }
    });
  });
});
