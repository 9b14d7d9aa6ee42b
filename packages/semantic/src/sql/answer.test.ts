import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../load.js';
import { meta } from '../meta.js';
import type { Query } from '../planner/query.js';
import { sampleTargets, type SampleDb } from '../test-support/sample-warehouses.js';
import { answerSql, describeSql, type SqlLoadResult } from './answer.js';

describe.each(sampleTargets())('answerSql on $name', (target) => {
  let db: SampleDb;
  beforeAll(async () => {
    db = await target.open();
  }, 120_000);
  afterAll(async () => db?.close());

  const run = (query: Query) => load(db.model, query, { warehouse: db.warehouse }) as Promise<SqlLoadResult>;

  it('answers a grouped SELECT with the load rows, in column order, with PostgreSQL types', async () => {
    const model = meta(db.model);
    const answer = await answerSql('SELECT status, MEASURE(count) AS n FROM orders GROUP BY 1 ORDER BY 1', { model, load: run });
    expect(answer.columns).toEqual([
      { name: 'status', type: 'text', typeOid: 25, columnType: 'Utf8' },
      { name: 'n', type: 'int8', typeOid: 20, columnType: 'Int64' },
    ]);
    const expected = await run({ measures: ['orders.count'], dimensions: ['orders.status'], order: [['orders.status', 'asc']] });
    expect(answer.rows).toEqual(expected.data.map((r) => [r['orders.status'], r['orders.count']]));
    expect((await describeSql('SELECT status, MEASURE(count) AS n FROM orders GROUP BY 1', { model })).columns).toEqual(answer.columns);
  });
});
