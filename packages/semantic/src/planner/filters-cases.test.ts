import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../dialects/dialect.js';
import { duckdbDialect } from '../dialects/duckdb.js';
import type { Warehouse } from '../drivers/warehouse.js';
import { QueryError } from '../errors.js';
import { warehouseTargets } from '../test-support/warehouses.js';
import { ALWAYS_TRUE, filterMembers, renderFilter, type FilterContext, type FilterTarget } from './filters.js';
import type { Filter, FilterValue, Operator } from './query.js';
import { Params } from './render.js';

/**
 * Each operator of filters.ts at its edges, run on a small table: the rows a rendered condition
 * selects, on DuckDB and (with DATABASE_URL) PostgreSQL. stryker.config.mjs scores filters.ts
 * against this file alone, so it opens each database once and renders conditions directly rather
 * than through a model and the sample warehouse.
 */

// id, name, amount, happened_at (UTC), flag. Rows sit exactly on, and a millisecond either side of,
// the instants the cases compare with: midnight UTC, midnight in New York (05:00 UTC in winter), and
// the day New York moves to summer time (10 March 2024, 07:00 UTC).
const ROWS: ReadonlyArray<[number, string | null, number | null, string | null, boolean | null]> = [
  [1, 'London', 10, '2024-01-01 00:00:00.000', true],
  [2, 'london', 20, '2023-12-31 23:59:59.999', false],
  [3, 'Paris', 30, '2024-01-01 00:00:00.001', true],
  [4, null, null, null, null],
  [5, '50% off', -5, '2024-01-01 23:59:59.999', false],
  [6, '50 off', 15, '2024-01-02 00:00:00.000', true],
  [7, 'a_b', 0, '2024-01-01 05:00:00.000', false],
  [8, 'axb', 25, '2024-01-01 04:59:59.999', true],
  [9, 'a\\b', 30.5, '2024-01-02 04:59:59.999', false],
  [10, 'ab', 10, '2024-01-02 05:00:00.000', null],
  [11, 'Lyon', 40, '2024-03-11 03:59:59.999', true],
  [12, 'on', 50, '2024-03-11 04:00:00.000', false],
  [13, 'Bonn', 60, '2024-03-10 04:59:59.999', true],
];
const ALL = ROWS.map((r) => r[0]);
const except = (...ids: number[]): number[] => ALL.filter((id) => !ids.includes(id));

const literal = (v: string | number | boolean | null): string =>
  v === null ? 'NULL' : typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v).toUpperCase();
const VALUES = ROWS.map(
  ([id, name, amount, at, flag]) => `(${id}, ${literal(name)}, ${literal(amount)}, ${at ? `TIMESTAMP '${at}'` : 'NULL'}, ${literal(flag)})`,
).join(', ');

interface Db {
  readonly warehouse: Warehouse;
  readonly table: string;
  close(): Promise<void>;
}

/** The column types each warehouse spells its own way: PostgreSQL keeps the milliseconds the rows sit on. */
const EVENTS_COLUMNS = {
  duckdb: '(id INTEGER, name VARCHAR, amount DOUBLE, happened_at TIMESTAMP, flag BOOLEAN)',
  postgres: '(id integer, name text, amount double precision, happened_at timestamp(3), flag boolean)',
};

const databases = warehouseTargets({ schemaPrefix: 'filter_cases', connections: 1 }).map((target) => ({
  name: target.name,
  open: async (): Promise<Db> => {
    const db = await target.open();
    const table = db.table('events');
    await db.warehouse.query(`CREATE TABLE ${table} ${EVENTS_COLUMNS[db.name]}`, []);
    await db.warehouse.query(`INSERT INTO ${table} VALUES ${VALUES}`, []);
    return { warehouse: db.warehouse, table, close: db.close };
  },
}));

/** The members a case can name, as plan.ts describes them: time members keep their raw UTC column. */
function targets(dialect: Dialect, tz: string, params: Params): Record<string, FilterTarget> {
  // As in the planner, the local value binds the zone as a parameter when it is read: a condition that
  // reads it without writing it into the SQL leaves a parameter both warehouses refuse to bind.
  const at: FilterTarget = {
    get sql(): string {
      return tz === 'UTC' ? 'happened_at' : dialect.convertTz('happened_at', params.add(tz));
    },
    rawTimeSql: 'happened_at',
    type: 'time',
  };
  return {
    'e.name': { sql: 'name', type: 'string' },
    'e.amount': { sql: 'amount', type: 'number' },
    'e.at': at,
    'e.flag': { sql: 'flag', type: 'boolean' },
    // A string member on a numeric column, as a model may declare a code.
    'e.code': { sql: 'id', type: 'string' },
    'e.big_amount': { sql: 'sum(amount)', type: 'number', measureConditions: 'amount > 20' },
  };
}

function context(dialect: Dialect, tz = 'UTC'): FilterContext {
  const params = new Params(dialect);
  const byMember = targets(dialect, tz, params);
  return {
    dialect,
    params,
    timezone: tz,
    target: (member) => {
      const target = byMember[member];
      if (!target) throw new Error(`no test target ${member}`);
      return target;
    },
  };
}

const f = (member: string, operator: Operator, values?: FilterValue[]): Filter =>
  values ? { member, operator, values } : { member, operator };
const name = (operator: Operator, values?: FilterValue[]): Filter => f('e.name', operator, values);
const amount = (operator: Operator, values?: FilterValue[]): Filter => f('e.amount', operator, values);
const at = (operator: Operator, values?: FilterValue[]): Filter => f('e.at', operator, values);

interface Case {
  readonly title: string;
  readonly filter: Filter;
  readonly ids: readonly number[];
  readonly tz?: string;
}

const STRING_CASES: Case[] = [
  { title: 'equals is exact and case-sensitive', filter: name('equals', ['London']), ids: [1] },
  { title: 'equals with several values', filter: name('equals', ['London', 'Paris']), ids: [1, 3] },
  { title: 'equals with a value and null', filter: name('equals', ['London', null]), ids: [1, 4] },
  { title: 'equals with values and null', filter: name('equals', ['London', 'Paris', null]), ids: [1, 3, 4] },
  { title: 'equals null alone', filter: name('equals', [null]), ids: [4] },
  { title: 'equals nothing matches nothing', filter: name('equals', []), ids: [] },
  { title: 'notEquals keeps nulls', filter: name('notEquals', ['London']), ids: except(1) },
  { title: 'notEquals with several values keeps nulls', filter: name('notEquals', ['London', 'Paris']), ids: except(1, 3) },
  { title: 'notEquals with a value and null drops nulls', filter: name('notEquals', ['London', null]), ids: except(1, 4) },
  { title: 'notEquals with values and null drops nulls', filter: name('notEquals', ['London', 'Paris', null]), ids: except(1, 3, 4) },
  { title: 'notEquals null alone', filter: name('notEquals', [null]), ids: except(4) },
  { title: 'notEquals nothing keeps everything', filter: name('notEquals', []), ids: ALL },
  { title: 'contains ignores case', filter: name('contains', ['ON']), ids: [1, 2, 11, 12, 13] },
  { title: 'contains any of several', filter: name('contains', ['on', 'AR']), ids: [1, 2, 3, 11, 12, 13] },
  { title: 'contains with null adds the nulls', filter: name('contains', ['on', null]), ids: [1, 2, 4, 11, 12, 13] },
  { title: 'contains null alone', filter: name('contains', [null]), ids: [4] },
  { title: 'contains nothing keeps everything', filter: name('contains', []), ids: ALL },
  { title: 'contains % literally', filter: name('contains', ['%']), ids: [5] },
  { title: 'contains _ literally', filter: name('contains', ['_']), ids: [7] },
  { title: 'contains a backslash literally', filter: name('contains', ['a\\b']), ids: [9] },
  { title: 'notContains keeps nulls', filter: name('notContains', ['on']), ids: except(1, 2, 11, 12, 13) },
  { title: 'notContains none of several', filter: name('notContains', ['on', 'ar']), ids: except(1, 2, 3, 11, 12, 13) },
  { title: 'notContains with null drops nulls', filter: name('notContains', ['on', null]), ids: except(1, 2, 4, 11, 12, 13) },
  { title: 'notContains null alone', filter: name('notContains', [null]), ids: except(4) },
  { title: 'startsWith', filter: name('startsWith', ['L']), ids: [1, 2, 11] },
  { title: 'startsWith only at the start', filter: name('startsWith', ['on']), ids: [12] },
  { title: 'startsWith _ literally', filter: name('startsWith', ['a_']), ids: [7] },
  { title: 'notStartsWith keeps nulls', filter: name('notStartsWith', ['L']), ids: except(1, 2, 11) },
  { title: 'endsWith only at the end', filter: name('endsWith', ['on']), ids: [1, 2, 11, 12] },
  { title: 'endsWith any of several', filter: name('endsWith', ['nn', 'IS']), ids: [3, 13] },
  { title: 'notEndsWith keeps nulls', filter: name('notEndsWith', ['on']), ids: except(1, 2, 11, 12) },
  { title: 'contains a number', filter: name('contains', [50]), ids: [5, 6] },
  { title: 'a string member on a number column', filter: f('e.code', 'equals', ['3', '12']), ids: [3, 12] },
  { title: 'set', filter: name('set'), ids: except(4) },
  { title: 'notSet', filter: name('notSet'), ids: [4] },
];

const NUMBER_CASES: Case[] = [
  { title: 'gt excludes the value', filter: amount('gt', ['10']), ids: [2, 3, 6, 8, 9, 11, 12, 13] },
  { title: 'gte includes the value', filter: amount('gte', ['10']), ids: [1, 2, 3, 6, 8, 9, 10, 11, 12, 13] },
  { title: 'lt excludes the value', filter: amount('lt', ['10']), ids: [5, 7] },
  { title: 'lte includes the value', filter: amount('lte', ['10']), ids: [1, 5, 7, 10] },
  { title: 'gt compares numbers, not text', filter: amount('gt', [30]), ids: [9, 11, 12, 13] },
  { title: 'lt a negative number', filter: amount('lt', ['-1']), ids: [5] },
  { title: 'equals a number', filter: amount('equals', ['10']), ids: [1, 10] },
  { title: 'equals a fraction', filter: amount('equals', [30.5]), ids: [9] },
  { title: 'equals several numbers', filter: amount('equals', ['10', '30']), ids: [1, 3, 10] },
  { title: 'notEquals several numbers keeps nulls', filter: amount('notEquals', ['10', '30']), ids: except(1, 3, 10) },
  { title: 'notEquals a number and null', filter: amount('notEquals', ['10', null]), ids: except(1, 4, 10) },
  { title: 'notEquals numbers and null', filter: amount('notEquals', ['10', '30', null]), ids: except(1, 3, 4, 10) },
  { title: 'equals a boolean', filter: f('e.flag', 'equals', ['true']), ids: [1, 3, 6, 8, 11, 13] },
  { title: 'equals a boolean given as one', filter: f('e.flag', 'equals', [false]), ids: [2, 5, 7, 9, 12] },
  { title: 'notEquals a boolean keeps nulls', filter: f('e.flag', 'notEquals', ['true']), ids: [2, 4, 5, 7, 9, 10, 12] },
  { title: 'measureFilter is the measure’s own condition', filter: f('e.big_amount', 'measureFilter'), ids: [3, 8, 9, 11, 12, 13] },
];

// Sorted by instant: 2 < 1 < 3 < 8 < 7 < 5 < 6 < 9 < 10 < 13 < 11 < 12; 4 is null.
const TIME_CASES: Case[] = [
  { title: 'beforeDate excludes its first instant', filter: at('beforeDate', ['2024-01-01']), ids: [2] },
  { title: 'beforeOrOnDate includes its first instant only', filter: at('beforeOrOnDate', ['2024-01-01']), ids: [1, 2] },
  { title: 'afterDate excludes its first instant', filter: at('afterDate', ['2024-01-01']), ids: [3, 5, 6, 7, 8, 9, 10, 11, 12, 13] },
  { title: 'afterOrOnDate includes it', filter: at('afterOrOnDate', ['2024-01-01']), ids: [1, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13] },
  { title: 'beforeDate an instant', filter: at('beforeDate', ['2024-01-01T00:00:00.001']), ids: [1, 2] },
  { title: 'afterDate an instant', filter: at('afterDate', ['2024-01-02T04:59:59.999']), ids: [10, 11, 12, 13] },
  { title: 'inDateRange of one day, both ends in', filter: at('inDateRange', ['2024-01-01', '2024-01-01']), ids: [1, 3, 5, 7, 8] },
  { title: 'notInDateRange drops nulls', filter: at('notInDateRange', ['2024-01-01', '2024-01-01']), ids: [2, 6, 9, 10, 11, 12, 13] },
  {
    title: 'inDateRange between instants',
    filter: at('inDateRange', ['2024-01-01T00:00:00.001', '2024-01-01T23:59:59.998']),
    ids: [3, 7, 8],
  },
  { title: 'inDateRange from a day to an instant', filter: at('inDateRange', ['2024-01-01', '2024-01-01T05:00:00']), ids: [1, 3, 7, 8] },
  // Cube reads a padded date as the instant at its midnight (dates-cases.test.ts).
  { title: 'inDateRange of padded dates', filter: at('inDateRange', [' 2024-01-01 ', ' 2024-01-01 ']), ids: [1] },
  { title: 'gt on a time excludes the instant', filter: at('gt', ['2024-01-01T05:00:00']), ids: [5, 6, 9, 10, 11, 12, 13] },
  { title: 'gte on a time includes it', filter: at('gte', ['2024-01-01T05:00:00']), ids: [5, 6, 7, 9, 10, 11, 12, 13] },
  { title: 'lt on a time excludes it', filter: at('lt', ['2024-01-01T05:00:00.000']), ids: [1, 2, 3, 8] },
  { title: 'lte on a time includes it', filter: at('lte', ['2024-01-01T05:00:00.000']), ids: [1, 2, 3, 7, 8] },
  { title: 'equals an instant', filter: at('equals', ['2024-01-01T00:00:00.001']), ids: [3] },
  { title: 'equals several instants', filter: at('equals', ['2024-01-01 05:00:00', '2024-01-02 05:00:00']), ids: [7, 10] },
  { title: 'set on a time', filter: at('set'), ids: except(4) },
];

// New York is UTC-5 in January: its midnight is 05:00 UTC. On 10 March 2024 it moves to UTC-4.
const NY = 'America/New_York';
const ZONED_CASES: Case[] = [
  { title: 'beforeDate in New York', filter: at('beforeDate', ['2024-01-01']), ids: [1, 2, 3, 8], tz: NY },
  { title: 'beforeOrOnDate in New York', filter: at('beforeOrOnDate', ['2024-01-01']), ids: [1, 2, 3, 7, 8], tz: NY },
  { title: 'afterDate in New York', filter: at('afterDate', ['2024-01-01']), ids: [5, 6, 9, 10, 11, 12, 13], tz: NY },
  { title: 'afterOrOnDate in New York', filter: at('afterOrOnDate', ['2024-01-01']), ids: [5, 6, 7, 9, 10, 11, 12, 13], tz: NY },
  { title: 'inDateRange of a New York day', filter: at('inDateRange', ['2024-01-01', '2024-01-01']), ids: [5, 6, 7, 9], tz: NY },
  {
    title: 'notInDateRange of a New York day',
    filter: at('notInDateRange', ['2024-01-01', '2024-01-01']),
    ids: [1, 2, 3, 8, 10, 11, 12, 13],
    tz: NY,
  },
  { title: 'inDateRange of the 23-hour day', filter: at('inDateRange', ['2024-03-10', '2024-03-10']), ids: [11], tz: NY },
  { title: 'gt in New York', filter: at('gt', ['2024-01-01T00:00:00']), ids: [5, 6, 9, 10, 11, 12, 13], tz: NY },
  { title: 'gte in New York', filter: at('gte', ['2024-01-02']), ids: [10, 11, 12, 13], tz: NY },
  { title: 'lt in New York', filter: at('lt', ['2024-01-02']), ids: [1, 2, 3, 5, 6, 7, 8, 9], tz: NY },
  { title: 'lte in New York', filter: at('lte', ['2024-01-02']), ids: [1, 2, 3, 5, 6, 7, 8, 9, 10], tz: NY },
  { title: 'equals compares local time', filter: at('equals', ['2024-01-01T00:00:00']), ids: [7], tz: NY },
];

// A value with a zone part names an instant, whatever the query's zone (Cube: moment.tz(value, timezone)).
// Row 7 sits at 05:00 UTC, row 8 a millisecond before it.
const ZONE_PART_CASES: Case[] = [
  { title: 'beforeDate an instant in Z', filter: at('beforeDate', ['2024-01-01T05:00:00Z']), ids: [1, 2, 3, 8] },
  { title: 'beforeOrOnDate an instant in Z', filter: at('beforeOrOnDate', ['2024-01-01T05:00:00.000Z']), ids: [1, 2, 3, 7, 8] },
  { title: 'afterDate an instant with an offset', filter: at('afterDate', ['2024-01-01T07:00:00+02:00']), ids: [5, 6, 9, 10, 11, 12, 13] },
  {
    title: 'afterOrOnDate an instant with an offset',
    filter: at('afterOrOnDate', ['2024-01-01T00:00:00.000-05:00']),
    ids: [5, 6, 7, 9, 10, 11, 12, 13],
  },
  {
    title: 'beforeDate an instant with an offset, in New York',
    filter: at('beforeDate', ['2024-01-01T06:00:00+0100']),
    ids: [1, 2, 3, 8],
    tz: NY,
  },
  {
    title: 'afterDate an instant in Z, in New York',
    filter: at('afterDate', ['2024-01-01T04:59:59.999Z']),
    ids: [5, 6, 7, 9, 10, 11, 12, 13],
    tz: NY,
  },
  {
    title: 'inDateRange between instants in Z',
    filter: at('inDateRange', ['2024-01-01T00:00:00.001Z', '2024-01-01T04:59:59.999Z']),
    ids: [3, 8],
  },
  {
    title: 'inDateRange between instants with offsets, in New York',
    filter: at('inDateRange', ['2024-01-01T02:00:00.001+02:00', '2024-01-01T05:00:00+00:00']),
    ids: [3, 7, 8],
    tz: NY,
  },
  {
    title: 'notInDateRange between instants with offsets',
    filter: at('notInDateRange', ['2024-01-01T00:00:00.001Z', '2024-01-01T05:59:59.999+01']),
    ids: [1, 2, 5, 6, 7, 9, 10, 11, 12, 13],
  },
  {
    title: 'gt an instant with an offset, in New York',
    filter: at('gt', ['2024-01-01T10:00:00+05:00']),
    ids: [5, 6, 9, 10, 11, 12, 13],
    tz: NY,
  },
  { title: 'lte an instant in Z, in New York', filter: at('lte', ['2024-01-01T05:00:00Z']), ids: [1, 2, 3, 7, 8], tz: NY },
  { title: 'gte an instant across the New York spring change', filter: at('gte', ['2024-03-11T00:00:00-04:00']), ids: [12], tz: NY },
];

const GROUP_CASES: Case[] = [
  { title: 'an empty and is no condition', filter: { and: [] }, ids: ALL },
  // Cube drops a group without conditions (BaseGroupFilter gives no SQL), even an `or`.
  { title: 'an empty or is no condition', filter: { or: [] }, ids: ALL },
  { title: 'an empty group leaves an or', filter: { or: [name('equals', ['London']), { and: [] }] }, ids: [1] },
  { title: 'an empty group leaves an and', filter: { and: [{ or: [] }, name('equals', ['Paris'])] }, ids: [3] },
  { title: 'empty groups in a group', filter: { and: [{ and: [] }, { or: [{ or: [] }] }] }, ids: ALL },
  { title: 'or', filter: { or: [name('equals', ['London']), amount('equals', ['30'])] }, ids: [1, 3] },
  { title: 'and', filter: { and: [name('contains', ['on']), amount('gt', ['20'])] }, ids: [11, 12, 13] },
  {
    title: 'an or inside an and keeps its parentheses',
    filter: { and: [{ or: [name('equals', ['London']), name('equals', ['Paris'])] }, amount('gt', ['15'])] },
    ids: [3],
  },
  {
    title: 'an and inside an or',
    filter: { or: [{ and: [name('startsWith', ['l']), amount('gt', ['15'])] }, name('equals', ['Paris'])] },
    ids: [2, 3, 11],
  },
];

describe.each(databases)('filter conditions on $name', (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  const matching = async (filter: Filter, tz = 'UTC'): Promise<number[]> => {
    const ctx = context(db.warehouse.dialect, tz);
    const where = renderFilter(filter, ctx);
    const result = await db.warehouse.query(`SELECT id FROM ${db.table} WHERE ${where} ORDER BY id`, ctx.params.values);
    return result.rows.map((row) => Number(row['id']));
  };

  it.each([...STRING_CASES, ...NUMBER_CASES, ...TIME_CASES, ...ZONED_CASES, ...ZONE_PART_CASES, ...GROUP_CASES])(
    '$title',
    async ({ filter, ids, tz }) => {
      expect(await matching(filter, tz)).toEqual(ids);
    },
  );
});

describe('filter conditions that cannot be rendered', () => {
  const render = (filter: Filter): string => renderFilter(filter, context(duckdbDialect));
  it.each([
    [amount('gt', []), 'Filter on e.amount with operator gt needs a value'],
    [amount('lte', [null]), 'Filter on e.amount with operator lte needs a value'],
    [name('equals', [null, null]), undefined],
    [at('beforeDate', [5]), 'Filter on e.at with operator beforeDate needs a date as value 1'],
    [at('gt', []), 'Filter on e.at with operator gt needs a date as value 1'],
    [at('inDateRange', ['2024-01-01', 5]), 'Filter on e.at with operator inDateRange needs a date as value 2'],
    [at('notInDateRange', [true, '2024-01-01']), 'Filter on e.at with operator notInDateRange needs a date as value 1'],
    [at('afterDate', ['2024-02-30']), "Can't parse date: '2024-02-30'"],
    [at('lt', ['2024-01-01T10:60']), "Can't parse date: '2024-01-01T10:60'"],
    [at('lt', ['2024-01-01T10:00:00+24:00']), "Can't parse date: '2024-01-01T10:00:00+24:00'"],
    [at('beforeDate', ['2024-01-01Z']), "Can't parse date: '2024-01-01Z'"],
    [amount('measureFilter'), 'Operator measureFilter needs a measure, and e.amount is not one'],
    [name('contains'), 'Filter on e.name with operator contains needs values'],
    [amount('equals'), 'Filter on e.amount with operator equals needs values'],
  ])('%j: %s', (filter, message) => {
    if (message === undefined) expect(render(filter)).toBe('name IS NULL');
    else expect(() => render(filter)).toThrow(new QueryError(message));
  });

  it('renders a filter tree with no conditions as always true', () => {
    expect(render({ or: [{ and: [] }] })).toBe(ALWAYS_TRUE);
  });

  it('lists the members a filter tree names, in order', () => {
    const tree: Filter = { or: [name('equals', ['a']), { and: [amount('gt', ['1']), { or: [] }, at('set')] }] };
    expect(filterMembers(tree)).toEqual(['e.name', 'e.amount', 'e.at']);
    expect(filterMembers(name('set'), ['before'])).toEqual(['before', 'e.name']);
    expect(filterMembers({ and: [] })).toEqual([]);
  });
});
