import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from './compiler/compile.js';
import { load } from './load.js';
import type { Caller, DataModel } from './model.js';
import type { Query } from './planner/query.js';
import { sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

// No answer may depend on the server's own zone. The PostgreSQL driver pins its sessions to UTC; this
// file runs in a process whose zone is Berlin, which DuckDB took for its sessions.
process.env['TZ'] = 'Europe/Berlin';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };

/** The same two instants as a zone-less timestamp, a timestamp with time zone, and a date. */
const MODEL = `cubes:
  - name: events
    sql: >
      SELECT 1 AS id, CAST('2023-03-12 20:34:00' AS TIMESTAMP) AS at_utc,
        CAST('2023-03-12 20:34:00+00' AS TIMESTAMPTZ) AS at_zoned, CAST('2023-03-12' AS DATE) AS on_day
      UNION ALL SELECT 2, CAST('2023-03-12 23:30:00' AS TIMESTAMP),
        CAST('2023-03-12 23:30:00+00' AS TIMESTAMPTZ), CAST('2023-03-13' AS DATE)
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true, public: true }
      - { name: at_utc, sql: at_utc, type: time }
      - { name: at_zoned, sql: at_zoned, type: time }
      - { name: on_day, sql: on_day, type: time }
    measures:
      - { name: count, type: count }
      - { name: latest_zoned, type: max, sql: at_zoned }
      - { name: last_zoned, type: time, sql: max(at_zoned) }
`;

const BY_ID = { order: { 'events.id': 'asc' as const } };

const CASES: Array<{ name: string; query: Query; rows: Array<Record<string, string>> }> = [
  {
    name: 'values in UTC',
    query: { dimensions: ['events.id', 'events.at_utc', 'events.at_zoned', 'events.on_day'], ...BY_ID },
    rows: [
      {
        'events.id': '1',
        'events.at_utc': '2023-03-12T20:34:00.000',
        'events.at_zoned': '2023-03-12T20:34:00.000',
        'events.on_day': '2023-03-12T00:00:00.000',
      },
      {
        'events.id': '2',
        'events.at_utc': '2023-03-12T23:30:00.000',
        'events.at_zoned': '2023-03-12T23:30:00.000',
        'events.on_day': '2023-03-13T00:00:00.000',
      },
    ],
  },
  {
    name: 'values in Tokyo',
    query: { dimensions: ['events.id', 'events.at_utc', 'events.at_zoned', 'events.on_day'], timezone: 'Asia/Tokyo', ...BY_ID },
    rows: [
      {
        'events.id': '1',
        'events.at_utc': '2023-03-13T05:34:00.000',
        'events.at_zoned': '2023-03-13T05:34:00.000',
        'events.on_day': '2023-03-12T09:00:00.000',
      },
      {
        'events.id': '2',
        'events.at_utc': '2023-03-13T08:30:00.000',
        'events.at_zoned': '2023-03-13T08:30:00.000',
        'events.on_day': '2023-03-13T09:00:00.000',
      },
    ],
  },
  {
    name: 'days in Tokyo',
    query: { measures: ['events.count'], timeDimensions: [{ dimension: 'events.at_zoned', granularity: 'day' }], timezone: 'Asia/Tokyo' },
    rows: [{ 'events.at_zoned.day': '2023-03-13T00:00:00.000', 'events.at_zoned': '2023-03-13T00:00:00.000', 'events.count': '2' }],
  },
  {
    name: 'hours in UTC',
    query: { measures: ['events.count'], timeDimensions: [{ dimension: 'events.at_zoned', granularity: 'hour' }] },
    rows: [
      { 'events.at_zoned.hour': '2023-03-12T20:00:00.000', 'events.at_zoned': '2023-03-12T20:00:00.000', 'events.count': '1' },
      { 'events.at_zoned.hour': '2023-03-12T23:00:00.000', 'events.at_zoned': '2023-03-12T23:00:00.000', 'events.count': '1' },
    ],
  },
  {
    name: 'equals a local time in Tokyo',
    query: {
      measures: ['events.count'],
      filters: [{ member: 'events.at_zoned', operator: 'equals', values: ['2023-03-13T05:34:00'] }],
      timezone: 'Asia/Tokyo',
    },
    rows: [{ 'events.count': '1' }],
  },
  {
    name: 'a date range in UTC',
    query: {
      measures: ['events.count'],
      timeDimensions: [{ dimension: 'events.at_zoned', dateRange: ['2023-03-12T21:00:00', '2023-03-13'] }],
    },
    rows: [{ 'events.count': '1' }],
  },
  {
    name: 'max and a time measure over a zoned column',
    query: { measures: ['events.latest_zoned', 'events.last_zoned'] },
    rows: [{ 'events.latest_zoned': '2023-03-12T23:30:00.000', 'events.last_zoned': '2023-03-12T23:30:00.000' }],
  },
];

describe.each(sampleTargets())('time columns of every kind on $name', (target) => {
  let db: SampleDb;
  let model: DataModel;
  beforeAll(async () => {
    db = await target.open();
    const compiled = compile({ 'model/events.yml': MODEL });
    if (!compiled.valid) throw new Error(JSON.stringify(compiled.errors));
    model = compiled.model;
  });
  afterAll(async () => {
    await db?.close();
  });

  it.each(CASES)('$name', async ({ query, rows }) => {
    const response = await load(model, query, { warehouse: db.warehouse, caller: ADMIN });
    expect(response.data).toEqual(rows);
  });
});
