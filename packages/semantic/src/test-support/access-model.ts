import { compile } from '../compiler/compile.js';
import type { Caller, DataModel } from '../model.js';
import type { SampleDb } from './sample-warehouses.js';

/**
 * A model over the sample tables whose cubes carry access policies and context references, so that
 * each path by which a query reads a cube (named member, join hop, `{other.member}`, view) and each
 * context form can be checked against hand-written SQL.
 */
export function accessModelYaml(table: (name: string) => string): string {
  return `cubes:
  - name: customers
    sql_table: '${table('customers')}'
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: country, sql: country, type: string }
      - { name: segment, sql: segment, type: string }
      - { name: email, sql: email, type: string }
    measures:
      - { name: count, type: count }
    access_policy:
      - group: "*"
        conditions:
          - if: "{ securityContext.country }"
        row_level:
          filters:
            - member: country
              operator: equals
              values: ["{ securityContext.country }"]
      - group: "*"
        conditions:
          - if: "{ not securityContext.country }"

  - name: orders
    sql_table: '${table('orders')}'
    joins:
      - name: customers
        relationship: many_to_one
        sql: "{CUBE}.customer_id = {customers.id}"
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
      - { name: customer_id, sql: customer_id, type: number }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - { name: count, type: count }
    access_policy:
      - group: "*"
        conditions:
          - if: "{ securityContext.status }"
        row_level:
          filters:
            - member: status
              operator: equals
              values: ["{ securityContext.status }"]
      - group: "*"
        conditions:
          - if: "{ not securityContext.status }"

  - name: line_items
    sql_table: '${table('line_items')}'
    joins:
      - name: orders
        relationship: many_to_one
        sql: "{CUBE}.order_id = {orders.id}"
      - name: products
        relationship: many_to_one
        sql: "{CUBE}.product_id = {products.id}"
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: order_status, sql: "{orders.status}", type: string }
    measures:
      - { name: count, type: count }
      - { name: revenue, type: sum, sql: "{CUBE}.quantity * {CUBE}.price" }

  - name: products
    sql_table: '${table('products')}'
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true, public: true }
      - { name: name, sql: name, type: string }
      - { name: category, sql: category, type: string }
      - { name: price, sql: price, type: number }
    measures:
      - { name: count, type: count }
    access_policy:
      - group: analyst
        member_level:
          includes: [category, count]
      - group: manager
        member_level:
          excludes: [price]
        row_level:
          filters:
            - or:
                - { member: category, operator: equals, values: ["{ userAttributes.category }"] }
                - and:
                    - { member: price, operator: gte, values: [100] }
                    - { member: name, operator: startsWith, values: ["Product 1"] }
      - groups: [admin, auditor]
        conditions:
          - if: "{ securityContext.clearance >= 3 and 'products' in securityContext.scopes }"
          - if: "{ not securityContext.suspended }"
        row_level:
          allow_all: true

views:
  - name: sales
    cubes:
      - join_path: line_items
        includes: [count, revenue]
      - join_path: line_items.orders
        prefix: true
        includes: [status]
      - join_path: line_items.orders.customers
        prefix: true
        includes: [country]
    access_policy:
      - group: "*"
        row_level:
          filters:
            - member: customers_country
              operator: equals
              values: ["{ securityContext.view_countries }"]
`;
}

export function compileAccessModel(db: SampleDb, extraYaml = '', compileContext?: Readonly<Record<string, unknown>>): DataModel {
  const files: Record<string, string> = { 'model/access.yml': accessModelYaml(db.table) };
  if (extraYaml) files['model/extra.yml'] = extraYaml;
  const result = compile(files, { compileContext });
  if (!result.valid) throw new Error(`access model invalid: ${JSON.stringify(result.errors)}`);
  return result.model;
}

export function caller(
  groups: string[],
  securityContext: Record<string, unknown> = {},
  userAttributes: Record<string, unknown> = {},
): Caller {
  return { groups, securityContext, userAttributes };
}
