import { compile } from '../compiler/compile.js';
import type { DataModel } from '../model.js';

/**
 * A model over the sample tables with one rollup per matching rule to test, and access policies on
 * the members rollups hold (customers.country, orders.status) and on one they do not (orders.customer_id).
 */
export function rollupModelYaml(table: (name: string) => string): string {
  return `cubes:
  - name: customers
    sql_table: '${table('customers')}'
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: country, sql: country, type: string }
      - { name: city, sql: city, type: string }
      - { name: segment, sql: segment, type: string }
    measures:
      - { name: count, type: count }
    segments:
      - { name: in_usa, sql: "{CUBE}.country = 'USA'" }
    access_policy:
      - group: "*"
        conditions: [{ if: "{ securityContext.country }" }]
        row_level:
          filters: [{ member: country, operator: equals, values: ["{ securityContext.country }"] }]
      - group: "*"
        conditions: [{ if: "{ not securityContext.country }" }]

  - name: orders
    sql_table: '${table('orders')}'
    joins:
      - { name: customers, relationship: many_to_one, sql: "{CUBE}.customer_id = {customers.id}" }
      - { name: line_items, relationship: one_to_many, sql: "{CUBE}.id = {line_items}.order_id" }
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
      - { name: customer_id, sql: customer_id, type: number }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - { name: count, type: count }
      - { name: completed_count, type: count, filters: [{ sql: "{CUBE}.status = 'completed'" }] }
      - { name: customer_count, type: count_distinct, sql: customer_id }
      - { name: customer_count_approx, type: count_distinct_approx, sql: customer_id }
      - { name: completed_share, type: number, sql: "1.0 * {completed_count} / NULLIF({count}, 0)" }
    segments:
      - { name: completed, sql: "{CUBE}.status = 'completed'" }
      - { name: recent, sql: "{CUBE}.created_at >= TIMESTAMP '2024-01-01'" }
    access_policy:
      - group: "*"
        conditions: [{ if: "{ securityContext.status }" }]
        row_level:
          filters: [{ member: status, operator: equals, values: ["{ securityContext.status }"] }]
      - group: "*"
        conditions: [{ if: "{ securityContext.customer }" }]
        row_level:
          filters: [{ member: customer_id, operator: equals, values: ["{ securityContext.customer }"] }]
      - group: "*"
        conditions: [{ if: "{ not securityContext.status and not securityContext.customer }" }]
    pre_aggregations:
      - name: by_day
        measures: [count, completed_count, customer_count, customer_count_approx]
        dimensions: [status, customers.country]
        segments: [completed]
        time_dimension: created_at
        granularity: day
        partition_granularity: month
        refresh_key: { every: 1 hour, incremental: true, update_window: 7 day }
      - name: by_week
        measures: [count]
        dimensions: [status]
        time_dimension: created_at
        granularity: week
      - name: by_month_loose
        measures: [count]
        dimensions: [status]
        time_dimension: created_at
        granularity: month
        allow_non_strict_date_range_match: true
      - name: year_2023
        measures: [count]
        dimensions: [status]
        time_dimension: created_at
        granularity: month
        partition_granularity: year
        build_range_start: { sql: "SELECT TIMESTAMP '2023-01-01'" }
        build_range_end: { sql: "SELECT TIMESTAMP '2023-12-31 23:59:59'" }
      - name: no_time
        measures: [count, customer_count_approx]
        dimensions: [status]
      - name: source_rows
        type: original_sql

  - name: line_items
    sql_table: '${table('line_items')}'
    joins:
      - { name: orders, relationship: many_to_one, sql: "{CUBE}.order_id = {orders.id}" }
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: quantity, sql: quantity, type: number }
    measures:
      - { name: count, type: count }
      - { name: total_quantity, type: sum, sql: quantity }
      - { name: revenue, type: sum, sql: "{CUBE}.quantity * {CUBE}.price" }
      - { name: avg_price, type: avg, sql: price }
      - { name: avg_quantity, type: avg, sql: quantity }
      - { name: big_avg_price, type: avg, sql: price, filters: [{ sql: "{CUBE}.quantity > 2" }] }
      - { name: min_price, type: min, sql: price }
      - { name: max_price, type: max, sql: price }
    pre_aggregations:
      - name: daily
        measures: [count, total_quantity, revenue, avg_price, avg_quantity, big_avg_price, min_price, max_price]
        dimensions: [orders.status, customers.country]
        time_dimension: orders.created_at
        granularity: day
        partition_granularity: quarter
      - name: with_orders
        type: rollup_join
        measures: [count, revenue, orders.count]
        dimensions: [orders.status]
        rollups: [line_items.daily, orders.no_time]

views:
  - name: sales
    cubes:
      - join_path: orders
        includes: [count, status, created_at]
      - join_path: orders.customers
        prefix: true
        includes: [country, segment]
    access_policy:
      - group: "*"
        conditions: [{ if: "{ securityContext.view_country }" }]
        row_level:
          filters: [{ member: customers_country, operator: equals, values: ["{ securityContext.view_country }"] }]
      - group: "*"
        conditions: [{ if: "{ not securityContext.view_country }" }]
`;
}

export function compileRollupModel(table: (name: string) => string): DataModel {
  const compiled = compile({ 'model/rollups.yml': rollupModelYaml(table) });
  if (!compiled.valid) throw new Error(`rollup model invalid: ${JSON.stringify(compiled.errors)}`);
  return compiled.model;
}
