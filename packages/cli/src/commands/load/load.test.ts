import { afterEach, expect, it } from 'vitest';
import {
  type ApiKeyPrincipal,
  commitFiles,
  policiesModelFiles,
  policyWarehouse,
  warehouseKinds,
  type PolicyWarehouse,
  type WarehouseKind,
} from '@plinth/server/test-support';
import { cliRunner, describeCli, type CliServer } from '../../test-support/harness.js';

const ORDERS = { measures: ['orders.count'], dimensions: ['orders.status'], order: { 'orders.status': 'asc' } };
const CUSTOMERS = { dimensions: ['customers.id', 'customers.country'], order: { 'customers.id': 'asc' }, limit: 5000 };

/** A deployment serving the policies model over the sample, built, with the groups and attribute embedded users name. */
async function policyDeployment(ctx: CliServer, kind: WarehouseKind) {
  const { server } = ctx;
  const deployment = await server.services.deployments.create(ctx.accountId, { name: 'policies' }, ctx.url);
  const key = await server.store.db.selectFrom('api_key').select('id').where('user_id', '=', ctx.admin.id).executeTakeFirstOrThrow();
  const admin: ApiKeyPrincipal = {
    kind: 'apiKey',
    accountId: ctx.accountId,
    credentialId: key.id,
    userId: ctx.admin.id,
    role: 'admin',
    deploymentIds: null,
  };
  // The CLI's server shares its data dir with other test files: the DuckDB gets a file of its own.
  const warehouse = await policyWarehouse(server.services, admin, deployment.id, kind, true);
  await commitFiles(server.services, admin, deployment.id, policiesModelFiles(warehouse.schema));
  await server.jobs.runUntilIdle();
  await server.services.groups.create(ctx.accountId, { name: 'sales' });
  await server.services.userAttributes.create(ctx.accountId, { name: 'country', type: 'string' });
  return { deploymentId: deployment.id, warehouse };
}

/** An embed token as an embedding application gets one: generate-session with the admin key, then the exchange. */
async function embedToken(ctx: CliServer, body: Record<string, unknown>): Promise<string> {
  const post = async (path: string, payload: unknown, auth?: string) => {
    const response = await fetch(`${ctx.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
      body: JSON.stringify(payload),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as Record<string, string>;
  };
  const { sessionId } = await post('/api/v1/embed/generate-session', body, `Api-Key ${ctx.admin.apiKey}`);
  return (await post('/api/v1/embed/session/token', { sessionId })).token!;
}

/** A data API token and a production environment token signed with a security context, as their API mints them. */
async function signedTokens(ctx: CliServer, deploymentId: number, securityContext: Record<string, unknown>): Promise<string[]> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${ctx.url}${path}`, {
      method,
      headers: { authorization: `Api-Key ${ctx.admin.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as any;
  };
  const data = await call('POST', `/api/v1/deployments/${deploymentId}/token`, { securityContext });
  const environments = await call('GET', `/api/v1/deployments/${deploymentId}/environments?type=production`);
  const created = await call('POST', `/api/v1/deployments/${deploymentId}/environments/${environments.data[0].id}/tokens`, {
    security_context: securityContext,
  });
  return [data.cubeApiToken, created.data.token];
}

/** The table `plinth load` prints for rows: upper-case member headers, columns aligned by two spaces. */
function table(rows: Array<Record<string, unknown>>): string {
  const keys = Object.keys(rows[0]!);
  const cells = [keys.map((k) => k.toUpperCase()), ...rows.map((row) => keys.map((k) => String(row[k])))];
  const widths = keys.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  return cells.map((line) => line.map((v, i) => (i === line.length - 1 ? v : v.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}

describeCli('plinth load', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  let warehouse: PolicyWarehouse | undefined;
  afterEach(async () => {
    await warehouse?.close();
    warehouse = undefined;
  });

  it.each(warehouseKinds)(
    'on %s: prints the rows a minted token sees, --json passes the body through, --token queries as its holder',
    async (kind) => {
      const set = await policyDeployment(ctx(), kind);
      warehouse = set.warehouse;
      const id = String(set.deploymentId);

      const orders = await plinth(['load', id, '--query', JSON.stringify(ORDERS)], { env: env() });
      expect(orders.code, orders.stderr).toBe(0);
      const all = await warehouse.truth(
        (t) => `SELECT status AS "orders.status", count(*) AS "orders.count" FROM ${t('orders')} GROUP BY status ORDER BY status`,
      );
      expect(orders.stdout).toBe(table(all));
      const json = await plinth(['load', id, '--query', JSON.stringify(ORDERS), '--json'], { env: env() });
      expect(JSON.parse(json.stdout)).toMatchObject({ query: { measures: ['orders.count'] }, data: expect.any(Array) });

      // The minted token carries no security context: no policy opens customers to it.
      const hidden = await plinth(['load', id, '--query', JSON.stringify(CUSTOMERS)], { env: env() });
      expect(hidden.code).not.toBe(0);
      expect(hidden.stderr).toMatch(/You requested hidden member: 'customers__id'/);

      // An embedded sales user in Germany sees the German customers only, and not their emails.
      const token = await embedToken(ctx(), {
        deploymentId: set.deploymentId,
        externalId: 'hans',
        groups: ['sales'],
        userAttributes: [{ name: 'country', value: 'Germany' }],
      });
      const german = await plinth(['load', id, '--query', JSON.stringify(CUSTOMERS), '--token', token], { env: env() });
      expect(german.code, german.stderr).toBe(0);
      const expected = await warehouse.truth(
        (t) => `SELECT id AS "customers.id", country AS "customers.country" FROM ${t('customers')} WHERE country = 'Germany' ORDER BY id`,
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(german.stdout).toBe(table(expected));
      const email = await plinth(['load', id, '--query', '{"dimensions":["customers.email"]}', '--token', token], { env: env() });
      expect(email.stderr).toMatch(/You requested hidden member: 'customers__email'/);

      // A data API token and an environment token signed for the UK see the British customers only.
      const british = await warehouse.truth(
        (t) => `SELECT id AS "customers.id", country AS "customers.country" FROM ${t('customers')} WHERE country = 'UK' ORDER BY id`,
      );
      for (const signed of await signedTokens(ctx(), set.deploymentId, { country: 'UK' })) {
        const uk = await plinth(['load', id, '--query', JSON.stringify(CUSTOMERS), '--token', signed], { env: env() });
        expect(uk.code, uk.stderr).toBe(0);
        expect(uk.stdout).toBe(table(british));
      }
    },
  );

  it('a malformed --query, a token of another deployment, a deployment without a build: each fails with its message', async () => {
    const { server } = ctx();
    const first = await server.services.deployments.create(ctx().accountId, { name: 'a' }, ctx().url);
    const other = await server.services.deployments.create(ctx().accountId, { name: 'b' }, ctx().url);
    const bad = await plinth(['load', String(first.id), '--query', '{nope'], { env: env() });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--query must be JSON/);
    const token = await embedToken(ctx(), { deploymentId: other.id, externalId: 'ann' });
    const foreign = await plinth(['load', String(first.id), '--query', '{}', '--token', token], { env: env() });
    expect(foreign.code).not.toBe(0);
    expect(foreign.stderr).toMatch(/Invalid token/);
    const unbuilt = await plinth(['load', String(first.id), '--query', JSON.stringify(ORDERS)], { env: env() });
    expect(unbuilt.stderr).toMatch(/No successful build of branch main yet/);
    const branch = await plinth(['load', String(first.id), '--query', JSON.stringify(ORDERS), '--branch', 'nope'], { env: env() });
    expect(branch.code).not.toBe(0);
    expect(branch.stderr).toMatch(/nope/);
  });
});

describeCli(
  'plinth load past the continue-wait time',
  (ctx, home) => {
    const plinth = cliRunner(home);
    const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });

    it('retries a query answered Continue wait (a 1 ms continue-wait: every cold query) until its rows come', async () => {
      const { deploymentId, warehouse } = await policyDeployment(ctx(), 'duckdb');
      try {
        const query = { ...ORDERS, filters: [{ member: 'orders.status', operator: 'notEquals', values: ['returned'] }] };
        const result = await plinth(['load', String(deploymentId), '--query', JSON.stringify(query)], { env: env() });
        expect(result.code, result.stderr).toBe(0);
        const rows = await warehouse.truth(
          (t) =>
            `SELECT status AS "orders.status", count(*) AS "orders.count" FROM ${t('orders')} ` +
            `WHERE status <> 'returned' GROUP BY status ORDER BY status`,
        );
        expect(result.stdout).toBe(table(rows));
      } finally {
        await warehouse.close();
      }
    });
  },
  { PLINTH_CONTINUE_WAIT_MS: '1' },
);
