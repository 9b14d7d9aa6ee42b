import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../load.js';
import type { Caller } from '../model.js';
import type { Query } from './query.js';
import { sampleTargets, type SampleDb } from '../test-support/sample-warehouses.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };
const END = '2100-01-01T00:00:00.000';
const NY = 'America/New_York';

/** The instant `utcWall` (a UTC wall time) written with a zone offset of `hours`, e.g. `...T12:00:00.000+02:00`. */
function withOffset(utcWall: string, hours: number): string {
  const shifted = new Date(Date.parse(`${utcWall}Z`) + hours * 3_600_000).toISOString().slice(0, 23);
  const sign = hours < 0 ? '-' : '+';
  return `${shifted}${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`;
}

function plusMs(utcWall: string, ms: number): string {
  return new Date(Date.parse(`${utcWall}Z`) + ms).toISOString().slice(0, 23);
}

/**
 * Date ranges and date filters with a zone part (`Z`, `+02:00`) on real rows, at the instant of an
 * order. Cube's gateway reads a `dateRange` bound with moment.utc (the instant on the UTC clock, then
 * read in the query's zone like any bound); its filters read values with moment.tz in the query's zone
 * (the instant itself, whatever the zone).
 */
describe.each(sampleTargets())('dates with a zone part on $name', (target) => {
  let db: SampleDb;
  /** The creation time of an order, as a UTC wall time: rows sit exactly on it. */
  let instant = '';
  beforeAll(async () => {
    db = await target.open();
    const response = await load(
      db.model,
      { dimensions: ['orders.id', 'orders.created_at'], order: { 'orders.id': 'asc' }, limit: 1, offset: 100, ungrouped: true },
      { warehouse: db.warehouse, caller: ADMIN },
    );
    instant = String(response.data[0]?.['orders.created_at']);
    expect(instant).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
  });
  afterAll(async () => {
    await db?.close();
  });

  const count = async (query: Partial<Query>): Promise<number> => {
    const response = await load(db.model, { measures: ['orders.count'], ...query }, { warehouse: db.warehouse, caller: ADMIN });
    return Number(response.data[0]?.['orders.count']);
  };
  const inRange = (from: string, to: string, timezone?: string): Promise<number> =>
    count({ timeDimensions: [{ dimension: 'orders.created_at', dateRange: [from, to] }], ...(timezone ? { timezone } : {}) });
  const filtered = (operator: 'inDateRange' | 'afterOrOnDate' | 'beforeDate', values: string[], timezone?: string): Promise<number> =>
    count({ filters: [{ member: 'orders.created_at', operator, values }], ...(timezone ? { timezone } : {}) });

  it('a dateRange bound in Z or with an offset is that instant, rows on it included', async () => {
    const fromInstant = await inRange(instant, END);
    expect(fromInstant).toBeGreaterThan(await inRange(plusMs(instant, 1), END));
    expect(await inRange(`${instant}Z`, `${END}Z`)).toBe(fromInstant);
    expect(await inRange(withOffset(instant, 2), withOffset(END, -5))).toBe(fromInstant);
    expect(await inRange(`${plusMs(instant, 1)}Z`, END)).toBe(await inRange(plusMs(instant, 1), END));
    // The end bound: the instant itself is in, a millisecond before it is out.
    expect(await inRange('2000-01-01', withOffset(instant, 3))).toBe(await inRange('2000-01-01', instant));
    expect(await inRange('2000-01-01', withOffset(instant, 3))).toBeGreaterThan(await inRange('2000-01-01', plusMs(instant, -1)));
  });

  it('in a query with a zone, a dateRange bound is shown on the UTC clock and read in that zone, as Cube’s gateway does', async () => {
    expect(await inRange(`${instant}Z`, END, NY)).toBe(await inRange(instant, END, NY));
    expect(await inRange(withOffset(instant, 2), END, NY)).toBe(await inRange(instant, END, NY));
  });

  it('a date filter value with a zone part is the instant it names, in any query zone', async () => {
    const fromInstant = await filtered('inDateRange', [instant, END]);
    expect(await filtered('inDateRange', [`${instant}Z`, END], NY)).toBe(fromInstant);
    expect(await filtered('inDateRange', [withOffset(instant, -7), `${END}Z`], NY)).toBe(fromInstant);
    expect(await filtered('afterOrOnDate', [withOffset(instant, 1)], NY)).toBe(fromInstant);
    expect(await filtered('afterOrOnDate', [`${plusMs(instant, 1)}Z`], NY)).toBeLessThan(fromInstant);
    expect(await filtered('beforeDate', [withOffset(instant, 9)], NY)).toBe(await filtered('beforeDate', [instant]));
  });
});
