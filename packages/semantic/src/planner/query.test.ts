import { describe, expect, it } from 'vitest';
import { QueryError } from '../errors.js';
import { normalizeQuery } from './query.js';

const BASE = { measures: ['orders.count'] };

/** Every key of Cube's query format (its api-gateway's query schema, plus the older renewQuery): accepted or refused by name. */
const ACCEPTED: Array<[string, unknown]> = [
  ['measures', ['orders.count']],
  ['dimensions', ['orders.status']],
  ['segments', ['orders.completed']],
  ['timeDimensions', [{ dimension: 'orders.created_at', granularity: 'day', dateRange: 'last week' }]],
  ['filters', [{ member: 'orders.status', operator: 'equals', values: ['a'] }]],
  [
    'filters',
    [
      { member: 'orders.status', operator: 'set' },
      { member: 'orders.status', operator: 'notSet', values: [] },
      { member: 'orders.count', operator: 'measureFilter', values: [] },
      { member: 'orders.status', operator: 'equals', values: [null] },
    ],
  ],
  ['order', { 'orders.count': 'desc' }],
  ['limit', 50_000],
  ['offset', 10],
  ['total', true],
  ['timezone', 'America/New_York'],
  ['ungrouped', true],
  ['joinHints', [['orders', 'customers']]],
  ['renewQuery', true],
  ['responseFormat', 'compact'],
  ['cache', 'no-cache'],
  ['cacheMode', 'must-revalidate'],
];

const REFUSED: Array<[string, Record<string, unknown>, string]> = [
  ['subqueryJoins', { subqueryJoins: [{ sql: 'SELECT 1', on: 'x', joinType: 'LEFT', alias: 'q' }] }, '"subqueryJoins" is not supported'],
  ['maskedMembers', { maskedMembers: [] }, '"maskedMembers" is not supported'],
  ['totalQuery', { totalQuery: true }, '"totalQuery" is not supported'],
  ['an unknown key', { surprise: 1 }, '"surprise" is not allowed'],
  ['a limit over the maximum', { limit: 50_001 }, 'The query limit has been exceeded: the maximum is 50000'],
  ['a negative limit', { limit: -1 }, '"limit" must be a non-negative integer'],
  ['a fractional offset', { offset: 1.5 }, '"offset" must be a non-negative integer'],
  [
    'an offset past 2^53, no longer the integer sent',
    { offset: 2 ** 53 },
    '"offset" must be a non-negative integer no larger than 9007199254740991',
  ],
  ['total that is not a boolean', { total: 'yes' }, '"total" must be true or false'],
  ['ungrouped that is not a boolean', { ungrouped: 1 }, '"ungrouped" must be true or false'],
  ['renewQuery that is not a boolean', { renewQuery: 'now' }, '"renewQuery" must be true or false'],
  ['an unknown cache mode', { cache: 'sometimes' }, '"cache" must be one of'],
  ['an unknown response format', { responseFormat: 'columnar' }, '"responseFormat" must be one of default, compact'],
  ['order given as a string', { order: 'orders.count' }, '"order" must be an object'],
  ['order with a bad direction', { order: [['orders.count', 'up']] }, '"order" must be an object'],
  [
    'an unknown time dimension key',
    { timeDimensions: [{ dimension: 'orders.created_at', range: 'today' }] },
    '"range" is not allowed in a time dimension',
  ],
  ['an unknown granularity', { timeDimensions: [{ dimension: 'orders.created_at', granularity: 'fortnight' }] }, 'must be one of second'],
  [
    'three dates in a range',
    { timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2024-01-01', '2024-01-02', '2024-01-03'] }] },
    'dateRange',
  ],
  [
    'dateRange beside compareDateRange',
    { timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'today', compareDateRange: ['today'] }] },
    'not both',
  ],
  [
    'an unknown filter key',
    { filters: [{ member: 'orders.status', operator: 'equals', value: ['a'] }] },
    '"value" is not allowed in a filter',
  ],
  [
    'an unknown filter operator',
    { filters: [{ member: 'orders.status', operator: 'like', values: ['a'] }] },
    "Unknown filter operator 'like'",
  ],
  ['and beside or', { filters: [{ and: [], or: [] }] }, 'either "and" or "or"'],
  // Cube's gateway message, with the filter as given.
  [
    'equals with an empty values list',
    { filters: [{ member: 'orders.status', operator: 'equals', values: [] }] },
    'Values required for filter: {"member":"orders.status","operator":"equals","values":[]}',
  ],
  [
    'notEquals with an empty values list',
    { filters: [{ member: 'orders.status', operator: 'notEquals', values: [] }] },
    'Values required for filter: {"member":"orders.status","operator":"notEquals","values":[]}',
  ],
  [
    'in (an alias) with an empty values list, inside a group',
    { filters: [{ or: [{ dimension: 'orders.status', operator: 'in', values: [] }] }] },
    'Values required for filter: {"dimension":"orders.status","operator":"in","values":[]}',
  ],
  ['contains without values', { filters: [{ member: 'orders.status', operator: 'contains' }] }, 'Values required for filter'],
  [
    'inDateRange with an empty list',
    { filters: [{ member: 'orders.created_at', operator: 'inDateRange', values: [] }] },
    'Values required',
  ],
];

describe('query format', () => {
  it.each(ACCEPTED)('accepts %s', (key, value) => {
    expect(() => normalizeQuery({ ...BASE, [key]: value })).not.toThrow();
  });

  it.each(REFUSED)('refuses %s, naming it', (_name, extra, message) => {
    expect(() => normalizeQuery({ ...BASE, ...extra })).toThrow(QueryError);
    expect(() => normalizeQuery({ ...BASE, ...extra })).toThrow(message);
  });

  it('reads order as an object or as an array of pairs, keeping the order given', () => {
    const asObject = normalizeQuery({ ...BASE, order: { 'orders.status': 'asc', 'orders.count': 'desc' } });
    const asPairs = normalizeQuery({
      ...BASE,
      order: [
        ['orders.status', 'asc'],
        ['orders.count', 'desc'],
      ],
    });
    expect(asObject.order).toEqual([
      { id: 'orders.status', desc: false },
      { id: 'orders.count', desc: true },
    ]);
    expect(asPairs.order).toEqual(asObject.order);
  });

  it('defaults the limit to 10,000, as Cube', () => {
    expect(normalizeQuery(BASE).limit).toBe(10_000);
    expect(normalizeQuery({ ...BASE, limit: null }).limit).toBe(10_000);
  });

  it('moves a dimension named with a granularity to the time dimensions, as Cube', () => {
    const query = normalizeQuery({ ...BASE, dimensions: ['orders.status', 'orders.created_at.month'] });
    expect(query.dimensions).toEqual(['orders.status']);
    expect(query.timeDimensions).toEqual([{ dimension: 'orders.created_at', granularity: 'month' }]);
  });

  it('reads a one-date dateRange as that day, as Cube', () => {
    const query = normalizeQuery({ ...BASE, timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2024-01-05'] }] });
    expect(query.timeDimensions[0]?.dateRange).toEqual(['2024-01-05', '2024-01-05']);
  });

  it.each([
    ['in', 'equals'],
    ['notIn', 'notEquals'],
    ['onTheDate', 'inDateRange'],
  ])('reads Cube operator %s as %s', (alias, operator) => {
    const query = normalizeQuery({ ...BASE, filters: [{ dimension: 'orders.status', operator: alias, values: ['a', 'b'] }] });
    expect(query.filters).toEqual([{ member: 'orders.status', operator, values: ['a', 'b'] }]);
  });

  it('echoes renewQuery and responseFormat', () => {
    expect(normalizeQuery({ ...BASE, renewQuery: true, responseFormat: 'compact' })).toMatchObject({
      renewQuery: true,
      responseFormat: 'compact',
    });
  });
});
