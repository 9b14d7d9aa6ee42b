import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from './compiler/compile.js';
import { load } from './load.js';
import type { Caller, DataModel } from './model.js';
import { sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };

/** Two ids a double cannot tell apart (2^53 and 2^53 + 1), and a small one. */
const IDS_MODEL = `cubes:
  - name: events
    sql: >
      SELECT CAST(9007199254740992 AS BIGINT) AS id, 1.5 AS score
      UNION ALL SELECT CAST(9007199254740993 AS BIGINT), 2.5
      UNION ALL SELECT CAST(7 AS BIGINT), 3.5
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
        public: true
      - name: score
        sql: score
        type: number
    measures:
      - name: count
        type: count
      - name: total_score
        type: sum
        sql: score
`;

/** Each filter (`in` is Cube's other name for `equals`) and the ids it leaves, as a person reads the values. */
const CASES: Array<{ name: string; filter: Record<string, unknown>; ids: string[] }> = [
  { name: 'equals 2^53 + 1', filter: { member: 'events.id', operator: 'equals', values: ['9007199254740993'] }, ids: ['9007199254740993'] },
  {
    name: 'notEquals 2^53',
    filter: { member: 'events.id', operator: 'notEquals', values: ['9007199254740992'] },
    ids: ['7', '9007199254740993'],
  },
  {
    name: 'in two big ids',
    filter: { member: 'events.id', operator: 'in', values: ['9007199254740993', '7'] },
    ids: ['7', '9007199254740993'],
  },
  { name: 'gt 2^53', filter: { member: 'events.id', operator: 'gt', values: ['9007199254740992'] }, ids: ['9007199254740993'] },
  { name: 'lte 2^53', filter: { member: 'events.id', operator: 'lte', values: ['9007199254740992'] }, ids: ['7', '9007199254740992'] },
  {
    name: 'a whole number against decimals',
    filter: { member: 'events.score', operator: 'gt', values: [2] },
    ids: ['7', '9007199254740993'],
  },
  {
    name: 'a decimal against decimals',
    filter: { member: 'events.score', operator: 'equals', values: ['2.5'] },
    ids: ['9007199254740993'],
  },
  { name: 'a whole number against a sum', filter: { member: 'events.total_score', operator: 'gte', values: ['3'] }, ids: ['7'] },
];

describe.each(sampleTargets())('number filters on $name', (target) => {
  let db: SampleDb;
  let model: DataModel;
  beforeAll(async () => {
    db = await target.open();
    const compiled = compile({ 'model/events.yml': IDS_MODEL });
    if (!compiled.valid) throw new Error(JSON.stringify(compiled.errors));
    model = compiled.model;
  });
  afterAll(async () => {
    await db?.close();
  });

  // DuckDB compared the BIGINT column with a DOUBLE parameter, where 2^53 + 1 equals 2^53.
  it.each(CASES)('$name', async ({ filter, ids }) => {
    const response = await load(
      model,
      { dimensions: ['events.id'], measures: ['events.count'], filters: [filter], order: { 'events.id': 'asc' } },
      { warehouse: db.warehouse, caller: ADMIN },
    );
    expect((response.data as Array<Record<string, unknown>>).map((row) => row['events.id'])).toEqual(ids);
  });
});
