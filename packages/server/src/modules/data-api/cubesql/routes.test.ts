import { expect, it } from 'vitest';
import { describeOnStores, type TestAccount, type TestServer } from '../../../test-support/server.js';
import { dataDirOverride, sampleDeployment } from '../test-fixtures.js';

async function mint(account: TestAccount, deploymentId: number): Promise<string> {
  const response = await account.request({
    method: 'POST',
    url: `/api/v1/deployments/${deploymentId}/token`,
    as: account.admin,
    body: { securityContext: {} },
  });
  if (response.status !== 200) throw new Error(`token: ${response.status} ${response.text}`);
  return response.body.cubeApiToken as string;
}

async function deployed(server: TestServer) {
  const set = await sampleDeployment(server, server.services.dataApi);
  const token = await mint(set.account, set.deploymentId);
  return { ...set, token, base: `/d/${set.deploymentId}/cubejs-api/v1` };
}

type Line = { schema?: Array<{ name: string; column_type: string }>; lastRefreshTime?: string; data?: unknown[][] };

/** The newline-delimited answer: its schema line and all rows of its data lines. */
function parseLines(text: string) {
  const lines = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);
  return { schema: lines[0]!.schema!, first: lines[0]!, rows: lines.slice(1).flatMap((line) => line.data!) };
}

/** Each SQL and the Cube query it means, whose /load rows (as arrays, by key) the SQL must answer. */
const EQUIVALENTS = [
  {
    sql: 'SELECT status, MEASURE(count) AS n FROM orders GROUP BY 1 ORDER BY 1',
    query: { measures: ['orders.count'], dimensions: ['orders.status'], order: [['orders.status', 'asc']] },
    keys: ['orders.status', 'orders.count'],
    names: ['status', 'n'],
  },
  {
    sql: "SELECT DATE_TRUNC('month', o.created_at), COUNT(*) FROM orders o WHERE o.status IN ('completed', 'shipped') AND o.created_at >= '2020-01-01' GROUP BY 1 ORDER BY 1 LIMIT 5",
    query: {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
      filters: [
        { member: 'orders.status', operator: 'equals', values: ['completed', 'shipped'] },
        { member: 'orders.created_at', operator: 'afterOrOnDate', values: ['2020-01-01'] },
      ],
      order: [['orders.created_at', 'asc']],
      limit: 5,
    },
    keys: ['orders.created_at.month', 'orders.count'],
    names: ["date_trunc('month', orders.created_at)", 'count(*)'],
  },
  {
    sql: "SELECT products_category, SUM(revenue), MEASURE(total_quantity) FROM sales WHERE orders_status LIKE '%e%' GROUP BY products_category HAVING MEASURE(total_quantity) > 1 ORDER BY 2 DESC",
    query: {
      measures: ['sales.revenue', 'sales.total_quantity'],
      dimensions: ['sales.products_category'],
      filters: [
        { member: 'sales.orders_status', operator: 'contains', values: ['e'] },
        { member: 'sales.total_quantity', operator: 'gt', values: ['1'] },
      ],
      order: [['sales.revenue', 'desc']],
    },
    keys: ['sales.products_category', 'sales.revenue', 'sales.total_quantity'],
    names: ['products_category', 'sum(sales.revenue)', 'measure(sales.total_quantity)'],
  },
];

describeOnStores(
  'SQL over HTTP (/v1/cubesql)',
  (server) => {
    it('answers a schema line then data lines, with the rows /load gives for the equivalent query', async () => {
      const { account, token, base } = await deployed(server());
      for (const { sql, query, keys, names } of EQUIVALENTS) {
        const response = await account.request({ method: 'POST', url: `${base}/cubesql`, as: token, body: { query: sql } });
        expect(response.status, `${sql}\n${response.text}`).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        const { schema, rows } = parseLines(response.text);
        expect(schema.map((c) => c.name)).toEqual(names);
        const load = await account.request({ method: 'POST', url: `${base}/load`, as: token, body: { query } });
        expect(load.status, load.text).toBe(200);
        const expected = (load.body.data as Array<Record<string, unknown>>).map((row) => keys.map((key) => row[key] ?? null));
        expect(expected.length, sql).toBeGreaterThan(0);
        expect(rows).toEqual(expected);
      }
    });

    it('row-level dimension queries, a segment, the dev-mode URL, and time zone', async () => {
      const { account, token, base, deploymentId } = await deployed(server());
      const ungrouped = await account.request({
        method: 'POST',
        url: `${base}/cubesql`,
        as: token,
        body: { query: 'SELECT id, status FROM orders WHERE completed ORDER BY id LIMIT 7' },
      });
      expect(ungrouped.status, ungrouped.text).toBe(200);
      const { schema, rows } = parseLines(ungrouped.text);
      expect(schema).toEqual([
        { name: 'id', column_type: 'Float64' },
        { name: 'status', column_type: 'Utf8' },
      ]);
      expect(rows).toHaveLength(7);
      expect(rows.every((row) => row[1] === 'completed')).toBe(true);

      // Without GROUP BY, dimensions are one row per row of the cube, as in SQL.
      const sql = async (query: string) =>
        parseLines((await account.request({ method: 'POST', url: `${base}/cubesql`, as: token, body: { query } })).text).rows;
      const [[count]] = (await sql('SELECT COUNT(*) FROM orders')) as [[string]];
      expect(await sql('SELECT status FROM orders')).toHaveLength(Number(count));
      expect((await sql('SELECT DISTINCT status FROM orders')).length).toBeLessThan(Number(count));

      const branch = await account.request({
        method: 'POST',
        url: `/d/${deploymentId}/dev-mode/main/cubejs-api/v1/cubesql`,
        as: token,
        body: { query: 'SELECT MEASURE(count) FROM orders', timezone: 'America/Los_Angeles', cache: 'no-cache' },
      });
      expect(branch.status, branch.text).toBe(200);
      expect(parseLines(branch.text).rows).toHaveLength(1);

      // The wire protocol's translation: joins by the model and post-processing answer here too.
      const statuses = (await sql('SELECT status, COUNT(*) FROM orders GROUP BY 1')) as Array<[string, string]>;
      const doubled = await sql('SELECT status, MEASURE(count) * 2 AS d FROM orders GROUP BY 1');
      expect(new Map(doubled as Array<[string, string]>)).toEqual(new Map(statuses.map(([s, n]) => [s, String(Number(n) * 2)])));
      const joined = await sql('SELECT c.city, COUNT(*) FROM orders o CROSS JOIN customers c GROUP BY 1');
      expect(joined.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(Number(count));
    });

    it.each([
      ['a join on columns', 'SELECT o.status FROM orders o JOIN customers c ON o.customer_id = c.id', /JOIN ... ON takes only/],
      ['DML', 'DELETE FROM orders', /DELETE statements are not supported/],
      ['a function in FROM', 'SELECT * FROM generate_series(1, 3)', /Functions in FROM are not supported/],
      ['an unknown table', 'SELECT status FROM nope', /Table nope does not exist/],
      ['an engine refusal (bad time zone)', null, /time ?zone|Invalid/i],
    ])('%s is a 400 {error} naming it', async (_name, sql, message) => {
      const { account, token, base } = await deployed(server());
      const body = sql === null ? { query: 'SELECT MEASURE(count) FROM orders', timezone: 'Nowhere/Nope' } : { query: sql };
      const response = await account.request({ method: 'POST', url: `${base}/cubesql`, as: token, body });
      expect(response.status, response.text).toBe(400);
      expect(Object.keys(response.body)).toEqual(['error']);
      expect(response.body.error).toMatch(message);
    });

    it("an unknown body field is a 400; no token or another deployment's token is Cube's 403", async () => {
      const { account, token, base } = await deployed(server());
      const extra = await account.request({ method: 'POST', url: `${base}/cubesql`, as: token, body: { query: 'SELECT 1', nope: 1 } });
      expect(extra.status).toBe(400);
      expect(extra.body.error).toMatch(/nope/);
      const missing = await account.request({ method: 'POST', url: `${base}/cubesql`, as: null, body: { query: 'SELECT 1' } });
      expect([missing.status, missing.body]).toEqual([403, { error: "Authorization header isn't set" }]);
      const other = await deployed(server());
      const foreign = await account.request({ method: 'POST', url: `${base}/cubesql`, as: other.token, body: { query: 'SELECT 1' } });
      expect([foreign.status, foreign.body]).toEqual([403, { error: 'Invalid token' }]);
    });
  },
  dataDirOverride(),
);
