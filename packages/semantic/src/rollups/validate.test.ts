import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/compile.js';

const CUBES = `cubes:
  - name: customers
    sql_table: customers
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: country, sql: country, type: string }
    measures:
      - { name: count, type: count }
  - name: orders
    sql_table: orders
    joins:
      - { name: customers, relationship: many_to_one, sql: "{CUBE}.customer_id = {customers.id}" }
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
      - { name: tenant, sql: "{SECURITY_CONTEXT.tenant.unsafeValue()}", type: string }
      - { name: created_at, sql: created_at, type: time }
      - { name: customer_count, sql: "{customers.count}", type: number, sub_query: true }
    measures:
      - { name: count, type: count }
      - { name: share, type: number, sql: "{count} / 2" }
      - { name: running, type: count, rolling_window: { trailing: 7 day } }
    segments:
      - { name: done, sql: "{CUBE}.status = 'completed'" }
    pre_aggregations:
`;

const withRollup = (yaml: string): Record<string, string> => ({
  'model/m.yml': `${CUBES}${yaml
    .trim()
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n')}\n`,
});

/** Each definition that cannot be honoured, and the reason compile gives, naming the pre-aggregation. */
const REJECTED: Array<{ reason: string; yaml: string; message: RegExp }> = [
  {
    reason: 'a lambda rollup',
    yaml: '- { name: p, type: rollup_lambda, rollups: [orders.a] }',
    message: /orders\.p: type rollup_lambda is not supported/,
  },
  {
    reason: 'a calculated measure',
    yaml: '- { name: p, measures: [share] }',
    message: /orders\.p: measure orders\.share is of type number/,
  },
  {
    reason: 'a rolling window',
    yaml: '- { name: p, measures: [running] }',
    message: /orders\.p: measure orders\.running has a rolling window/,
  },
  {
    reason: 'a sub_query dimension',
    yaml: '- { name: p, measures: [count], dimensions: [customer_count] }',
    message: /orders\.p: dimension orders\.customer_count is a sub_query dimension/,
  },
  {
    reason: 'the caller’s security context',
    yaml: '- { name: p, measures: [count], dimensions: [tenant] }',
    message: /orders\.p: its members read the caller's security context/,
  },
  {
    reason: 'a granularity without time dimension',
    yaml: '- { name: p, measures: [count], granularity: day }',
    message: /orders\.p: granularity needs a time_dimension/,
  },
  {
    reason: 'a time dimension without granularity',
    yaml: '- { name: p, measures: [count], time_dimension: created_at }',
    message: /orders\.p: time_dimension needs a granularity/,
  },
  {
    reason: 'a time dimension that is not a time',
    yaml: '- { name: p, measures: [count], time_dimension: status, granularity: day }',
    message: /orders\.p: time_dimension orders\.status is of type string/,
  },
  {
    reason: 'weeks split by months',
    yaml: '- { name: p, measures: [count], time_dimension: created_at, granularity: week, partition_granularity: month }',
    message: /orders\.p: partition_granularity month does not hold whole week buckets/,
  },
  {
    reason: 'partitions finer than the buckets',
    yaml: '- { name: p, measures: [count], time_dimension: created_at, granularity: month, partition_granularity: day }',
    message: /partition_granularity day does not hold whole month buckets/,
  },
  {
    reason: 'incremental without partitions',
    yaml: '- { name: p, measures: [count], time_dimension: created_at, granularity: day, refresh_key: { every: 1 hour, incremental: true } }',
    message: /orders\.p: refresh_key\.incremental refreshes partitions/,
  },
  {
    reason: 'an update window without incremental',
    yaml: '- { name: p, measures: [count], time_dimension: created_at, granularity: day, partition_granularity: month, refresh_key: { update_window: 3 day } }',
    message: /update_window applies to incremental refreshes only/,
  },
  {
    reason: 'an unreadable interval',
    yaml: "- { name: p, measures: [count], refresh_key: { every: 'now and then' } }",
    message: /orders\.p: refresh_key\.every 'now and then' is neither an interval/,
  },
  {
    reason: 'an unknown refresh key option',
    yaml: '- { name: p, measures: [count], refresh_key: { every: 1 hour, sometimes: true } }',
    message: /refresh_key\.sometimes is not a refresh key option/,
  },
  {
    reason: 'a build range without time dimension',
    yaml: "- { name: p, measures: [count], build_range_start: { sql: 'SELECT 1' } }",
    message: /build_range_start and build_range_end need a time_dimension/,
  },
  {
    reason: 'a build range not written as sql',
    yaml: "- { name: p, measures: [count], time_dimension: created_at, granularity: day, build_range_end: 'SELECT 1' }",
    message: /build_range_end must be written as \{sql: \.\.\.\}/,
  },
  { reason: 'nothing to store', yaml: '- { name: p }', message: /orders\.p: it names no measures, dimensions, segments or time_dimension/ },
  {
    reason: 'a measure listed as a dimension',
    yaml: '- { name: p, dimensions: [count] }',
    message: /orders\.p: dimensions names orders\.count, which is a measure, not a dimension/,
  },
  {
    reason: 'an index on a column outside the rollup',
    yaml: '- { name: p, measures: [count], dimensions: [status], indexes: [{ name: i, columns: [created_at] }] }',
    message: /index i names orders\.created_at, which is not one of its dimensions/,
  },
  {
    reason: 'a rollup_join without rollups',
    yaml: '- { name: p, type: rollup_join, measures: [count] }',
    message: /orders\.p: a rollup_join needs `rollups`/,
  },
  {
    reason: 'a rollup_join of a missing rollup',
    yaml: '- { name: p, type: rollup_join, measures: [count], rollups: [orders.a, customers.b] }',
    message: /rollups names orders\.a, which is not a pre-aggregation/,
  },
  {
    reason: 'an original_sql with members',
    yaml: '- { name: p, type: original_sql, measures: [count] }',
    message: /orders\.p: an original_sql pre-aggregation stores the cube's SQL rows/,
  },
  {
    reason: 'several time dimensions',
    yaml: '- { name: p, measures: [count], time_dimensions: [{ dimension: created_at, granularity: day }] }',
    message: /time_dimensions is not supported by Plinth/,
  },
  {
    reason: 'a streaming option',
    yaml: '- { name: p, measures: [count], unique_key_columns: [id] }',
    message: /unique_key_columns is not supported by Plinth/,
  },
];

const ACCEPTED: Array<{ what: string; yaml: string }> = [
  {
    what: 'a partitioned rollup with every option',
    yaml: "- name: p\n  measures: [count]\n  dimensions: [status, customers.country]\n  segments: [done]\n  time_dimension: created_at\n  granularity: day\n  partition_granularity: month\n  refresh_key: { every: '0 * * * *', sql: 'SELECT max(created_at) FROM orders', incremental: true, update_window: 7 day }\n  build_range_start: { sql: \"SELECT NOW() - interval '1 year'\" }\n  build_range_end: { sql: 'SELECT NOW()' }\n  indexes: [{ name: by_status, columns: [status] }]\n  allow_non_strict_date_range_match: true\n  external: false\n  scheduled_refresh: true",
  },
  {
    what: 'the older spellings',
    yaml: '- { name: p, measure_references: [count], dimension_references: [status], time_dimension_reference: created_at, granularity: day, partition_granularity: year, incremental: true, update_window: 2 day, refresh_range_start: { sql: "SELECT 1" } }',
  },
  { what: 'an original_sql', yaml: '- { name: p, type: original_sql, refresh_key: { every: 1 day } }' },
  {
    what: 'a rollup_join of rollups',
    yaml: '- { name: a, measures: [count], dimensions: [customers.country] }\n- { name: b, measures: [count], dimensions: [status] }\n- { name: p, type: rollup_join, measures: [count], dimensions: [status, customers.country], rollups: [a, orders.b] }',
  },
];

describe('pre-aggregations that cannot be honoured fail compile, naming the pre-aggregation and the reason', () => {
  it.each(REJECTED)('$reason', ({ yaml, message }) => {
    const result = compile(withRollup(yaml));
    expect(result.valid).toBe(false);
    expect(result.errors.map((error) => error.message)).toContainEqual(expect.stringMatching(message));
    for (const error of result.errors) expect(error.line).toBeGreaterThan(0);
  });

  it.each(ACCEPTED)('accepts $what', ({ yaml }) => {
    expect(compile(withRollup(yaml)).errors).toEqual([]);
  });

  it('reads a JavaScript model’s preAggregations, references and camelCase keys included', () => {
    const js = `cube(\`orders\`, {
  sql_table: 'orders',
  measures: { count: { type: 'count' }, share: { type: 'number', sql: \`\${count} / 2\` } },
  dimensions: { id: { sql: 'id', type: 'number', primaryKey: true }, createdAt: { sql: 'created_at', type: 'time' } },
  preAggregations: {
    main: { measures: [CUBE.count], timeDimension: CUBE.createdAt, granularity: 'day', partitionGranularity: 'month', refreshKey: { every: '1 day', incremental: true, updateWindow: '3 day' } },
    bad: { measures: [share] },
  },
});`;
    const result = compile({ 'model/orders.js': js });
    expect(result.errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/^Pre-aggregation orders\.bad: measure orders\.share is of type number/),
    ]);
    expect(result.model.cubes.get('orders')?.preAggregations.get('main')).toMatchObject({
      measures: ['orders.count'],
      timeDimension: 'orders.createdAt',
      partitionGranularity: 'month',
      refreshKey: { every: '1 day', everySeconds: 86400, incremental: true, updateWindowSeconds: 259200 },
    });
  });
});
