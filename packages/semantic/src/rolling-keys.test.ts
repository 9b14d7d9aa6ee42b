import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from './compiler/compile.js';
import { load } from './load.js';
import type { DataModel } from './model.js';
import type { Query } from './planner/query.js';
import { normalizeRows, sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

/**
 * A rolling measure of a cube whose rows a one-to-many join repeats, windowed along a time dimension of
 * the far cube: parent 1 has two events on 1 January and one on 3 January, parent 2 one on 2 January.
 * Cube computes such a measure per period of the finer of the window's and the query's granularity
 * (once per parent and day here) and sums those over the window; a parent with two events in one day
 * counts once for that day.
 */
const MODEL = `cubes:
  - name: parents
    sql: SELECT 1 AS id, 5 AS amount UNION ALL SELECT 2 AS id, 7 AS amount
    joins:
      - name: events
        relationship: one_to_many
        sql: "{CUBE}.id = {events}.parent_id"
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
    measures:
      - { name: count_7d, type: count, rolling_window: { trailing: 7 day } }
      - { name: amount_7d, type: sum, sql: amount, rolling_window: { trailing: 1 week } }
      - { name: running_amount, type: running_total, sql: amount }
  - name: events
    sql: >
      SELECT 10 AS id, 1 AS parent_id, TIMESTAMP '2024-01-01 10:00:00' AS at
      UNION ALL SELECT 11, 1, TIMESTAMP '2024-01-01 11:00:00'
      UNION ALL SELECT 12, 1, TIMESTAMP '2024-01-03 09:00:00'
      UNION ALL SELECT 13, 2, TIMESTAMP '2024-01-02 08:00:00'
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: at, sql: at, type: time }
`;

describe.each(sampleTargets())('rolling measures repeated by a one-to-many join, along the far cube’s time, on $name', (target) => {
  let db: SampleDb;
  let model: DataModel;
  beforeAll(async () => {
    db = await target.open();
    const compiled = compile({ 'model/m.yml': MODEL });
    expect(compiled.errors).toEqual([]);
    model = compiled.model;
  });
  afterAll(async () => {
    await db?.close();
  });

  const values = async (query: Query, measure: string): Promise<unknown[]> =>
    normalizeRows((await load(model, query, { warehouse: db.warehouse })).data).map((row) => row[measure]);
  const byDay: Query['timeDimensions'] = [{ dimension: 'events.at', granularity: 'day', dateRange: ['2024-01-01', '2024-01-04'] }];

  it('counts a parent once per day of the window it has events on', async () => {
    expect(await values({ measures: ['parents.count_7d'], timeDimensions: byDay }, 'parents.count_7d')).toEqual(
      ['1', '2', '3', '3'].map((n) => Number(n).toFixed(4)),
    );
  });

  it('sums a parent’s value once per day, over a window given in weeks', async () => {
    expect(await values({ measures: ['parents.amount_7d'], timeDimensions: byDay }, 'parents.amount_7d')).toEqual(
      ['5', '12', '17', '17'].map((n) => Number(n).toFixed(4)),
    );
  });

  it('keeps the running total per day too', async () => {
    expect(await values({ measures: ['parents.running_amount'], timeDimensions: byDay }, 'parents.running_amount')).toEqual(
      ['5', '12', '17', '17'].map((n) => Number(n).toFixed(4)),
    );
  });
});
