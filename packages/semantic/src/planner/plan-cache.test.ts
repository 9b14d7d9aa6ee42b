import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/compile.js';
import { duckdbDialect } from '../dialects/duckdb.js';
import { postgresDialect } from '../dialects/postgres.js';
import { sampleModelFiles } from '../sample/sample.js';
import { planQuery } from './plan.js';

const ADMIN = { groups: ['admin'], userAttributes: {}, securityContext: {} };
const regional = (country: string) => ({ groups: ['regional'], userAttributes: { country }, securityContext: {} });

/** A fresh model per test: plans are kept per model, so no test sees another's. */
const freshModel = () => compile(sampleModelFiles()).model;

describe('plans kept per model', () => {
  it('plans the same query from the same caller once, and hands out a frozen plan', () => {
    const model = freshModel();
    const query = { measures: ['orders.count'], dimensions: ['orders.status'] };
    const first = planQuery(model, query, { dialect: duckdbDialect, caller: ADMIN });
    const again = planQuery(model, { ...query }, { dialect: duckdbDialect, caller: ADMIN });
    expect(again).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.query.measures)).toBe(true);
    expect(() => (first.query.measures as string[]).push('orders.id')).toThrow(TypeError);
  });

  it('keeps nothing of the query object it was made from', () => {
    const model = freshModel();
    const measures = ['orders.count'];
    const first = planQuery(model, { measures }, { dialect: duckdbDialect, caller: ADMIN });
    measures.push('line_items.revenue');
    expect(Object.isFrozen(measures)).toBe(false);
    expect(first.query.measures).toEqual(['orders.count']);
    expect(planQuery(model, { measures: ['orders.count'] }, { dialect: duckdbDialect, caller: ADMIN })).toBe(first);
  });

  it('plans apart for each caller, dialect and model', () => {
    const model = freshModel();
    const query = { measures: ['sales.revenue'], dimensions: ['sales.customers_country'] };
    const uk = planQuery(model, query, { dialect: duckdbDialect, caller: regional('UK') });
    const usa = planQuery(model, query, { dialect: duckdbDialect, caller: regional('USA') });
    expect(uk.params).toContain('UK');
    expect(usa.params).toContain('USA');
    expect(usa.params).not.toContain('UK');
    expect(planQuery(model, query, { dialect: postgresDialect, caller: regional('UK') })).not.toBe(uk);
    expect(planQuery(freshModel(), query, { dialect: duckdbDialect, caller: regional('UK') })).not.toBe(uk);
  });

  it.each([
    ['a relative date range', { timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'last week' }] }],
    [
      'an inDateRange filter with one date',
      { filters: [{ member: 'orders.created_at', operator: 'inDateRange', values: ['2024-01-01'] }] },
    ],
    ['a relative inDateRange filter', { filters: [{ member: 'orders.created_at', operator: 'inDateRange', values: ['this month'] }] }],
    ['a relative afterDate filter', { filters: [{ member: 'orders.created_at', operator: 'afterDate', values: ['last month'] }] }],
  ])('plans a query with %s again each time, from the time of asking', (_name, dates) => {
    const model = freshModel();
    const query = { measures: ['orders.count'], ...dates };
    const may = planQuery(model, query, { dialect: duckdbDialect, caller: ADMIN, now: new Date('2024-05-15T12:00:00Z') });
    const june = planQuery(model, query, { dialect: duckdbDialect, caller: ADMIN, now: new Date('2024-06-20T12:00:00Z') });
    expect(june).not.toBe(may);
    expect(june.params).not.toEqual(may.params);
    expect(Object.isFrozen(may)).toBe(false);
  });

  it('keeps a plan whose date range is fixed, whatever the time of asking', () => {
    const model = freshModel();
    const query = {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2024-01-01', '2024-01-31'] }],
    };
    const may = planQuery(model, query, { dialect: duckdbDialect, caller: ADMIN, now: new Date('2024-05-15T12:00:00Z') });
    expect(planQuery(model, query, { dialect: duckdbDialect, caller: ADMIN, now: new Date('2025-01-01T00:00:00Z') })).toBe(may);
  });

  it('keeps the 256 most recently used plans of a model', () => {
    const model = freshModel();
    const queryOf = (limit: number) => ({ measures: ['orders.count'], limit });
    const oldest = planQuery(model, queryOf(1), { dialect: duckdbDialect, caller: ADMIN });
    const used = planQuery(model, queryOf(2), { dialect: duckdbDialect, caller: ADMIN });
    for (let limit = 3; limit <= 257; limit++) {
      planQuery(model, queryOf(limit), { dialect: duckdbDialect, caller: ADMIN });
      // Used again while the others arrive, so it stays.
      if (limit === 200) expect(planQuery(model, queryOf(2), { dialect: duckdbDialect, caller: ADMIN })).toBe(used);
    }
    expect(planQuery(model, queryOf(2), { dialect: duckdbDialect, caller: ADMIN })).toBe(used);
    expect(planQuery(model, queryOf(1), { dialect: duckdbDialect, caller: ADMIN })).not.toBe(oldest);
  });

  it.each([
    ['a Map', new Map([['tenant', 7]])],
    ['a class instance', new (class Tenant {})()],
    ['a function', () => 7],
    ['an array with a hole', [1, undefined]],
  ])('plans every time for a caller whose security context holds %s, which JSON cannot spell', (_name, value) => {
    const model = freshModel();
    const caller = { ...ADMIN, securityContext: { tenant: value } };
    const query = { measures: ['orders.count'] };
    const first = planQuery(model, query, { dialect: duckdbDialect, caller });
    expect(planQuery(model, query, { dialect: duckdbDialect, caller })).not.toBe(first);
  });
});
