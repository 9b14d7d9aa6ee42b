import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../load.js';
import type { Caller, DataModel } from '../model.js';
import { caller, compileAccessModel } from '../test-support/access-model.js';
import { sampleTargets, type SampleDb } from '../test-support/sample-warehouses.js';
import type { Query } from './query.js';

/**
 * `equals`/`notEquals` with `values: []`: Cube's gateway refuses the query ("Values required for
 * filter"), while a row-level policy whose attribute is an empty list must still show no rows.
 */
describe.each(sampleTargets())('empty values lists on $name', (target) => {
  let db: SampleDb;
  let model: DataModel;
  beforeAll(async () => {
    db = await target.open();
    // A policy with no conditions, so that only its row filter decides what an empty list shows.
    model = compileAccessModel(
      db,
      `cubes:
  - name: guarded_orders
    sql_table: '${db.table('orders')}'
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
    measures:
      - { name: count, type: count }
    access_policy:
      - group: "*"
        row_level:
          filters:
            - { member: status, operator: equals, values: ["{ securityContext.statuses }"] }
      - group: auditor
        row_level:
          filters:
            - { member: status, operator: notEquals, values: ["{ securityContext.statuses }"] }
`,
    );
  });
  afterAll(async () => {
    await db?.close();
  });

  const count = async (query: Query, who: Caller): Promise<number> => {
    const response = await load(model, query, { warehouse: db.warehouse, caller: who });
    return Number(Object.values(response.data[0] ?? {})[0] ?? 0);
  };

  it.each(['equals', 'notEquals', 'in', 'notIn'])('a query filter %s with no values is refused with Cube’s message', async (operator) => {
    const filter = { member: 'customers.country', operator, values: [] };
    await expect(
      load(model, { measures: ['customers.count'], filters: [filter] }, { warehouse: db.warehouse, caller: caller([], { country: 'UK' }) }),
    ).rejects.toThrow(`Values required for filter: ${JSON.stringify(filter)}`);
  });

  it('a row-level policy whose attribute is an empty list shows no rows, for equals and notEquals alike', async () => {
    const query: Query = { measures: ['guarded_orders.count'] };
    expect(await count(query, caller([], { statuses: ['shipped', 'completed'] }))).toBeGreaterThan(0);
    expect(await count(query, caller([], { statuses: [] }))).toBe(0);
    expect(await count(query, caller(['auditor'], { statuses: ['shipped'] }))).toBeGreaterThan(0);
    expect(await count(query, caller(['auditor'], { statuses: [] }))).toBe(0);
    expect(await count(query, caller([], {}))).toBe(0);
  });
});
