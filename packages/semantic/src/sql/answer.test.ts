import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../load.js';
import { meta } from '../meta.js';
import type { Query } from '../planner/query.js';
import { caller, compileAccessModel } from '../test-support/access-model.js';
import { sampleTargets, type SampleDb } from '../test-support/sample-warehouses.js';
import { answerSql, describeSql, type SqlLoadResult } from './answer.js';
import { EQUIVALENTS } from '../test-support/sql-equivalents.js';

const rowsOf = async (rows: AsyncIterable<unknown[]> | unknown[][]) => {
  const all: unknown[][] = [];
  for await (const row of rows) all.push(row);
  return all;
};
const sorted = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();

describe.each(sampleTargets())('SQL answers equal the data API answers on $name', (target) => {
  let db: SampleDb;
  beforeAll(async () => {
    db = await target.open();
  }, 120_000);
  afterAll(async () => db?.close());

  const run = (query: Query) => load(db.model, query, { warehouse: db.warehouse }) as Promise<SqlLoadResult>;

  it.each(EQUIVALENTS)('$sql', async ({ sql, query, keys }) => {
    const loads: Query[] = [];
    const answer = await answerSql(sql, { model: meta(db.model), load: (q) => (loads.push(q), run(q)) });
    expect(loads).toHaveLength(1);
    const expected = (await run(query as Query)).data.map((row) => keys.map((k) => row[k] ?? null));
    const rows = await rowsOf(answer.rows);
    if ('order' in query) expect(rows).toEqual(expected);
    else expect(sorted(rows)).toEqual(sorted(expected));
    expect(rows.length).toBeGreaterThan(0);
  });

  it.each([
    ['an answer under the row limit comes from load alone', 'SELECT status, MEASURE(count) FROM orders GROUP BY 1', 1000, 'load'],
    ['a LIMIT within the row limit is loaded as asked', 'SELECT id FROM orders LIMIT 3', 3, 'load'],
    ['an answer that fills the row limit is streamed whole', 'SELECT id FROM orders', 2, 'stream'],
    ['a LIMIT past the row limit is streamed', 'SELECT id FROM orders LIMIT 5', 2, 'stream'],
  ])('with a stream: %s', async (_name, sql, maxRows, way) => {
    const loads: Query[] = [];
    const streams: Query[] = [];
    const stream = async (q: Query) => {
      streams.push(q);
      const { data } = await run(q);
      return (async function* () {
        yield data;
      })();
    };
    const model = meta(db.model);
    const answer = await answerSql(sql, { model, load: (q) => (loads.push(q), run(q)), stream, maxRows });
    const rows = await rowsOf(answer.rows);
    const all = await rowsOf((await answerSql(sql, { model, load: run, maxRows: 50_000 })).rows);
    expect(sorted(rows)).toEqual(sorted(all));
    expect(loads).toHaveLength(1);
    expect(streams).toHaveLength(way === 'stream' ? 1 : 0);
    if (way === 'stream') {
      // The probe reads up to the row limit; the stream carries the statement's own LIMIT (none, or 5).
      expect(loads[0]!.limit).toBe(maxRows);
      expect(streams[0]!.limit).toBe(/LIMIT (\d+)/.exec(sql) ? Number(/LIMIT (\d+)/.exec(sql)![1]) : undefined);
    }
  });

  it('columns carry PostgreSQL types, the same in the answer and in Describe', async () => {
    const model = meta(db.model);
    const sql =
      "SELECT status, is_completed, created_at, DATE_TRUNC('month', created_at), MEASURE(count) AS n, MEASURE(completed_share) FROM orders GROUP BY 1, 2, 3, 4";
    const answer = await answerSql(sql, { model, load: run });
    expect(answer.columns.map((c) => [c.name, c.type, c.typeOid])).toEqual([
      ['status', 'text', 25],
      ['is_completed', 'bool', 16],
      ['created_at', 'timestamp', 1114],
      ["date_trunc('month', orders.created_at)", 'timestamp', 1114],
      ['n', 'int8', 20],
      ['measure(orders.completed_share)', 'float8', 701],
    ]);
    expect((await describeSql(sql, { model })).columns).toEqual(answer.columns);
  });

  it("runs under the caller's policy: the load callback applies it, and hidden members are no columns", async () => {
    const model = compileAccessModel(db);
    const completed = caller(['*'], { status: 'completed' });
    const policed = (q: Query) => load(model, q, { warehouse: db.warehouse, caller: completed }) as Promise<SqlLoadResult>;
    const answer = await answerSql('SELECT status, COUNT(*) FROM orders GROUP BY 1 ORDER BY 1', {
      model: meta(model, completed),
      load: policed,
    });
    const rows = await rowsOf(answer.rows);
    expect(rows.map((r) => r[0])).toEqual(['completed']);
    const open = (q: Query) => load(model, q, { warehouse: db.warehouse }) as Promise<SqlLoadResult>;
    const everyone = await answerSql('SELECT status, COUNT(*) FROM orders GROUP BY 1', { model: meta(model), load: open });
    expect((await rowsOf(everyone.rows)).length).toBeGreaterThan(1);
    // Post-processing reads only what the policed load answered.
    const post = await answerSql('SELECT COUNT(*) AS statuses FROM (SELECT status FROM orders GROUP BY 1) t', {
      model: meta(model, completed),
      load: policed,
    });
    expect(await rowsOf(post.rows)).toEqual([['1']]);
  });
});
