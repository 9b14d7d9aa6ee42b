/**
 * The data model that goes with the sample dataset: joins both ways, a view, segments, a policy. Its
 * primary keys say `public: true`, since Cube hides a primary key from queries and meta otherwise.
 */
export function sampleModelYaml(schema?: string): string {
  const t = (name: string): string => (schema ? `${schema}.${name}` : name);
  return `cubes:
  - name: customers
    sql_table: ${t('customers')}
    joins:
      - name: orders
        relationship: one_to_many
        sql: "{CUBE}.id = {orders}.customer_id"
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
        public: true
      - name: name
        sql: name
        type: string
      - name: email
        sql: email
        type: string
      - name: city
        sql: city
        type: string
      - name: country
        sql: country
        type: string
      - name: segment
        sql: segment
        type: string
      - name: created_at
        sql: created_at
        type: time
    measures:
      - name: count
        type: count
    segments:
      - name: in_usa
        sql: "{CUBE}.country = 'USA'"
    access_policy:
      - group: "*"
        member_level:
          excludes: [email]
      - group: admin

  - name: orders
    sql_table: ${t('orders')}
    joins:
      - name: customers
        relationship: many_to_one
        sql: "{CUBE}.customer_id = {customers.id}"
      - name: line_items
        relationship: one_to_many
        sql: "{CUBE}.id = {line_items}.order_id"
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
        public: true
      - name: customer_id
        sql: customer_id
        type: number
      - name: status
        sql: status
        type: string
      - name: status_group
        type: string
        case:
          when:
            - sql: "{CUBE}.status IN ('completed', 'shipped')"
              label: fulfilled
            - sql: "{CUBE}.status = 'processing'"
              label: open
          else:
            label: lost
      - name: is_completed
        sql: "{CUBE}.status = 'completed'"
        type: boolean
      - name: created_at
        sql: created_at
        type: time
    measures:
      - name: count
        type: count
      - name: completed_count
        type: count
        filters:
          - sql: "{CUBE}.status = 'completed'"
      - name: completed_share
        type: number
        sql: "1.0 * {completed_count} / NULLIF({count}, 0)"
        format: percent
      - name: customer_count
        type: count_distinct
        sql: customer_id
      - name: customer_count_approx
        type: count_distinct_approx
        sql: customer_id
    segments:
      - name: completed
        sql: "{CUBE}.status = 'completed'"

  - name: line_items
    sql_table: ${t('line_items')}
    joins:
      - name: orders
        relationship: many_to_one
        sql: "{CUBE}.order_id = {orders.id}"
      - name: products
        relationship: belongs_to
        sql: "{CUBE}.product_id = {products.id}"
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
        public: true
      - name: quantity
        sql: quantity
        type: number
      - name: price
        sql: price
        type: number
    measures:
      - name: count
        type: count
      - name: total_quantity
        type: sum
        sql: quantity
      - name: revenue
        type: sum
        sql: "{CUBE}.quantity * {CUBE}.price"
        format: currency
      - name: avg_price
        type: avg
        sql: price
      - name: min_price
        type: min
        sql: price
      - name: max_price
        type: max
        sql: price
      - name: order_count
        type: count_distinct
        sql: order_id
      - name: revenue_per_order
        type: number
        sql: "{revenue} / NULLIF({order_count}, 0)"

  - name: products
    sql_table: ${t('products')}
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
        public: true
      - name: name
        sql: name
        type: string
      - name: category
        sql: category
        type: string
      - name: price
        sql: price
        type: number
    measures:
      - name: count
        type: count
      - name: avg_price
        type: avg
        sql: price
    pre_aggregations:
      - name: by_category
        measures: [count]
        dimensions: [category]

views:
  - name: sales
    description: Line items with their order, customer and product
    cubes:
      - join_path: line_items
        includes: [count, revenue, total_quantity]
      - join_path: line_items.orders
        prefix: true
        includes: [status, created_at, count]
      - join_path: line_items.orders.customers
        prefix: true
        includes: [country, city, segment]
      - join_path: line_items.products
        prefix: true
        includes: [category]
    access_policy:
      - group: "*"
        member_level:
          includes: [count, revenue, total_quantity, orders_status, orders_created_at, orders_count, products_category]
      - group: regional
        row_level:
          filters:
            - member: customers_country
              operator: equals
              values: ["{ userAttributes.country }"]
      - group: admin
`;
}
