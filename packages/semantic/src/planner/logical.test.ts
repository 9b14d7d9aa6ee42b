import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/compile.js';
import { duckdbDialect } from '../dialects/duckdb.js';
import { postgresDialect } from '../dialects/postgres.js';
import { sampleModelFiles } from '../sample/sample.js';
import { buildLogicalQuery } from './logical.js';
import { planLogicalQuery, planQuery } from './plan.js';
import { normalizeQuery, type Query } from './query.js';

const model = compile(sampleModelFiles()).model;
const ADMIN = { groups: ['admin'], userAttributes: {}, securityContext: {} };
const NOW = new Date('2024-05-15T12:00:00Z');
const logicalOf = (query: Query) => buildLogicalQuery(model, normalizeQuery(query), { caller: ADMIN, now: () => NOW });

describe('logical query', () => {
  it('holds date ranges as wall-clock bounds in the query zone, not SQL', () => {
    const logical = logicalOf({
      measures: ['orders.count'],
      timezone: 'Europe/Berlin',
      timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'yesterday' }],
    });
    expect(logical.dateRanges.map((range) => [range.path, new Date(range.from).toISOString(), new Date(range.to).toISOString()])).toEqual([
      ['orders.created_at', '2024-05-14T00:00:00.000Z', '2024-05-14T23:59:59.999Z'],
    ]);
    expect(logical.timeDimensions).toEqual([]);
  });

  it('names leaf measures, the fanned-out ones, and the join tree', () => {
    const logical = logicalOf({ measures: ['orders.completed_share', 'line_items.count'], dimensions: ['orders.status'] });
    expect(logical.measures[0]?.leaves.map((leaf) => leaf.path)).toEqual(['orders.completed_count', 'orders.count']);
    expect([...logical.leafMeasures.keys()]).toEqual(['orders.completed_count', 'orders.count', 'line_items.count']);
    expect(logical.joinTree.joins.map((join) => `${join.from}->${join.to}`)).toEqual(['orders->line_items']);
    // line_items only feeds a count: it is aggregated per order before the join, so no order is repeated.
    expect(logical.preAggregatedJoins.map((join) => [join.cube, join.leaves.map((leaf) => leaf.path)])).toEqual([
      ['line_items', ['line_items.count']],
    ]);
    expect([...logical.multiplied]).toEqual([]);
  });

  it('keeps the distinct-rows plan when the far cube splits the groups', () => {
    const logical = logicalOf({ measures: ['orders.count'], dimensions: ['products.category'] });
    expect(logical.preAggregatedJoins).toEqual([]);
    expect([...logical.multiplied]).toEqual(['orders.count']);
  });

  it('splits filters into row and measure filters as data', () => {
    const logical = logicalOf({
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      filters: [
        { member: 'orders.count', operator: 'gt', values: ['1'] },
        { member: 'orders.status', operator: 'equals', values: ['completed'] },
      ],
    });
    expect(logical.measureFilters).toEqual([{ member: 'orders.count', operator: 'gt', values: ['1'] }]);
    expect(logical.rowFilters).toEqual([{ member: 'orders.status', operator: 'equals', values: ['completed'] }]);
  });

  it.each([duckdbDialect, postgresDialect])('renders the same logical query for $name as planQuery does', (dialect) => {
    const query: Query = { measures: ['orders.count'], dimensions: ['customers.city'], timezone: 'Asia/Tokyo', limit: 7 };
    const fromLogical = planLogicalQuery(logicalOf(query), dialect);
    const direct = planQuery(model, query, { dialect, caller: ADMIN, now: NOW });
    expect(fromLogical.sql).toBe(direct.sql);
    expect(fromLogical.params).toEqual(direct.params);
  });
});
