import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../load.js';
import { meta } from '../meta.js';
import type { Query } from '../planner/query.js';
import { sampleTargets, type SampleDb } from '../test-support/sample-warehouses.js';
import { answerSql, describeSql, type SqlLoadResult } from './answer.js';
import { SqlTranslationError } from './errors.js';

const all = async (rows: AsyncIterable<unknown[]> | unknown[][]) => {
  const out: unknown[][] = [];
  for await (const row of rows) out.push(row);
  return out;
};
const num = (value: unknown) => Number(value);

/** Post-processing over pushed-down results, each checked against the same figures computed here from the data API's rows. */
describe('post-processing on duckdb', () => {
  let db: SampleDb;
  let byStatus: Array<{ status: string; count: number }>;
  const loads: Query[] = [];
  const run = (query: Query) => {
    loads.push(query);
    return load(db.model, query, { warehouse: db.warehouse }) as Promise<SqlLoadResult>;
  };
  const answer = async (sql: string, params?: unknown[]) => {
    loads.length = 0;
    const result = await answerSql(sql, { model: meta(db.model), load: run, ...(params ? { params } : {}) });
    return { columns: result.columns, rows: await all(result.rows) };
  };

  beforeAll(async () => {
    db = await sampleTargets()[0]!.open();
    const data = (await load(db.model, { measures: ['orders.count'], dimensions: ['orders.status'] }, { warehouse: db.warehouse })).data;
    byStatus = data.map((r) => ({ status: String(r['orders.status']), count: num(r['orders.count']) }));
  }, 120_000);
  afterAll(async () => db?.close());

  it('expressions over aggregates (arithmetic on measures)', async () => {
    const { columns, rows } = await answer('SELECT status, MEASURE(count) * 2 + 1 AS x FROM orders GROUP BY 1 ORDER BY 1');
    expect(loads).toEqual([{ measures: ['orders.count'], dimensions: ['orders.status'], timeDimensions: [], filters: [], limit: 50_000 }]);
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ['status', 'text'],
      ['x', 'int8'],
    ]);
    const expected = [...byStatus].sort((a, b) => a.status.localeCompare(b.status)).map((r) => [r.status, String(r.count * 2 + 1)]);
    expect(rows).toEqual(expected);
  });

  it('a ratio of two measures', async () => {
    const { rows } = await answer('SELECT products_category, MEASURE(revenue) / MEASURE(total_quantity) AS per_unit FROM sales GROUP BY 1');
    const base = await load(
      db.model,
      { measures: ['sales.revenue', 'sales.total_quantity'], dimensions: ['sales.products_category'] },
      { warehouse: db.warehouse },
    );
    const expected = base.data.map((r) => [r['sales.products_category'], num(r['sales.revenue']) / num(r['sales.total_quantity'])]);
    expect(rows.map((r) => [r[0], num(r[1])]).sort()).toEqual(expected.sort().map(([c, v]) => [c, expect.closeTo(v as number, 6)]));
  });

  it('window functions over grouped results', async () => {
    const { columns, rows } = await answer(
      'SELECT status, COUNT(*) AS n, RANK() OVER (ORDER BY COUNT(*) DESC) AS r, SUM(MEASURE(count)) OVER () AS total FROM orders GROUP BY 1 ORDER BY r, status',
    );
    expect(columns.map((c) => c.name)).toEqual(['status', 'n', 'r', 'total']);
    const total = byStatus.reduce((s, r) => s + r.count, 0);
    const ranked = [...byStatus].sort((a, b) => b.count - a.count || a.status.localeCompare(b.status));
    expect(rows.map((r) => [r[0], num(r[1]), num(r[3])])).toEqual(ranked.map((r) => [r.status, r.count, total]));
    expect(num(rows[0]![2])).toBe(1);
  });

  it('CTEs, and subqueries over results', async () => {
    const cte = await answer(
      'WITH t AS (SELECT status, COUNT(*) AS c FROM orders GROUP BY 1) SELECT SUM(c) AS total, COUNT(*) AS statuses FROM t',
    );
    expect(cte.rows).toEqual([[String(byStatus.reduce((s, r) => s + r.count, 0)), String(byStatus.length)]]);
    const sub = await answer('SELECT MAX(c) AS most FROM (SELECT status, MEASURE(count) AS c FROM orders GROUP BY status) AS t');
    expect(sub.rows).toEqual([[String(Math.max(...byStatus.map((r) => r.count)))]]);
  });

  it('UNION of results of two cubes', async () => {
    const { rows } = await answer(
      "SELECT status AS v FROM orders GROUP BY 1 UNION ALL SELECT city FROM customers WHERE city LIKE 'A%' GROUP BY 1",
    );
    expect(loads).toHaveLength(2);
    const cities = (
      await load(
        db.model,
        { dimensions: ['customers.city'], filters: [{ member: 'customers.city', operator: 'startsWith', values: ['A'] }] },
        { warehouse: db.warehouse },
      )
    ).data;
    expect(rows.map((r) => r[0]).sort()).toEqual([...byStatus.map((r) => r.status), ...cities.map((r) => r['customers.city'])].sort());
  });

  it('CASE over results, and expressions over dimensions', async () => {
    const { rows } = await answer(
      "SELECT upper(status) AS s, CASE WHEN MEASURE(count) > 1000 THEN 'big' ELSE 'small' END AS size FROM orders GROUP BY status",
    );
    const expected = byStatus.map((r) => [r.status.toUpperCase(), r.count > 1000 ? 'big' : 'small']);
    expect(rows.sort()).toEqual(expected.sort());
  });

  it('HAVING over an expression, NULLS LAST and LIMIT after post-processing', async () => {
    const { rows } = await answer(
      'SELECT status, COUNT(*) AS n FROM orders GROUP BY 1 HAVING COUNT(*) * 2 > 1000 ORDER BY n DESC NULLS LAST LIMIT 2',
    );
    // The SQL's LIMIT applies after post-processing; the pushed query reads up to the row limit.
    expect(loads[0]!.limit).toBe(50_000);
    const expected = byStatus
      .filter((r) => r.count * 2 > 1000)
      .sort((a, b) => b.count - a.count)
      .slice(0, 2);
    expect(rows.map((r) => [r[0], num(r[1])])).toEqual(expected.map((r) => [r.status, r.count]));
  });

  it('a join of two pushed-down results, with parameters', async () => {
    const { rows } = await answer(
      'SELECT a.status, a.c, b.r FROM (SELECT status, COUNT(*) AS c FROM orders GROUP BY 1) a JOIN (SELECT orders_status, MEASURE(revenue) AS r FROM sales WHERE orders_status <> $1 GROUP BY 1) b ON a.status = b.orders_status WHERE a.c > $2',
      ['cancelled', 10],
    );
    expect(loads[1]!.filters).toEqual([{ member: 'sales.orders_status', operator: 'notEquals', values: ['cancelled'] }]);
    const sales = await load(db.model, { measures: ['sales.revenue'], dimensions: ['sales.orders_status'] }, { warehouse: db.warehouse });
    const revenue = new Map(sales.data.map((r) => [r['sales.orders_status'], num(r['sales.revenue'])]));
    const expected = byStatus
      .filter((r) => r.status !== 'cancelled' && r.count > 10 && revenue.has(r.status))
      .map((r) => [r.status, r.count, revenue.get(r.status)]);
    expect(rows.map((r) => [r[0], num(r[1]), num(r[2])]).sort()).toEqual(
      expected.sort().map(([s, c, v]) => [s, c, expect.closeTo(v as number, 6)]),
    );
  });

  it('a pushed-down result reaching the row limit is refused, never post-processed incomplete', async () => {
    const error = await answerSql('SELECT upper(status) FROM orders GROUP BY status', {
      model: meta(db.model),
      load: run,
      maxRows: 3,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SqlTranslationError);
    expect(error).toMatchObject({ sqlState: '54000', message: expect.stringMatching(/over orders .* row limit of 3/) });
  });

  it('SELECT without a table runs in the engine alone; Describe types post-processed columns and parameters', async () => {
    expect((await answer('SELECT 1 AS one')).rows).toEqual([['1']]);
    // A parameter is a value, whatever quotes it holds.
    expect((await answer('SELECT $1::text AS v', ['O\'Brien"; DROP TABLE x; --'])).rows).toEqual([['O\'Brien"; DROP TABLE x; --']]);
    expect(loads).toHaveLength(0);
    const described = await describeSql('SELECT status, MEASURE(count) / 2.0 AS half FROM orders WHERE status = $1 GROUP BY 1 LIMIT $2', {
      model: meta(db.model),
    });
    expect(described.columns.map((c) => [c.name, c.type])).toEqual([
      ['status', 'text'],
      ['half', 'float8'],
    ]);
    expect(described.paramTypes.map((t) => t.name)).toEqual(['text', 'int8']);
  });
});
