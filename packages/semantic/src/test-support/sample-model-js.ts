/**
 * The sample model (sample/model.ts) written as Cube's JavaScript model files, in the idioms Cube
 * users write them: camelCase keys, members as maps, `${CUBE}` and cross-cube references,
 * function-valued `sql`, camelCase types. Table names start with `COMPILE_CONTEXT.prefix` so the
 * same files serve DuckDB (no schema) and PostgreSQL (a schema per test run).
 */
export const SAMPLE_MODEL_JS: Record<string, string> = {
  'model/cubes/customers.js': `cube(\`customers\`, {
  sqlTable: \`\${COMPILE_CONTEXT.prefix}customers\`,
  joins: {
    orders: { relationship: \`hasMany\`, sql: \`\${CUBE}.id = \${orders}.customer_id\` },
  },
  dimensions: {
    id: { sql: \`id\`, type: \`number\`, primaryKey: true, public: true },
    name: { sql: \`name\`, type: \`string\` },
    email: { sql: \`email\`, type: \`string\` },
    city: { sql: \`city\`, type: \`string\` },
    country: { sql: \`country\`, type: \`string\` },
    segment: { sql: \`segment\`, type: \`string\` },
    created_at: { sql: \`created_at\`, type: \`time\` },
  },
  measures: {
    count: { type: \`count\` },
  },
  segments: {
    in_usa: { sql: () => \`\${CUBE}.country = 'USA'\` },
  },
  accessPolicy: [
    { group: \`*\`, memberLevel: { excludes: [\`email\`] } },
    { group: \`admin\` },
  ],
});
`,
  'model/cubes/orders.js': `// Statuses that count as fulfilled, shared by two members below.
const FULFILLED = ['completed', 'shipped'].map((status) => \`'\${status}'\`).join(', ');

cube(\`orders\`, {
  sqlTable: \`\${COMPILE_CONTEXT.prefix}orders\`,
  joins: {
    customers: { relationship: \`belongsTo\`, sql: \`\${CUBE}.customer_id = \${customers.id}\` },
    line_items: { relationship: \`one_to_many\`, sql: \`\${CUBE}.id = \${line_items}.order_id\` },
  },
  dimensions: {
    id: { sql: \`id\`, type: \`number\`, primaryKey: true, public: true },
    customer_id: { sql: \`customer_id\`, type: \`number\` },
    status: { sql: \`status\`, type: \`string\` },
    status_group: {
      type: \`string\`,
      case: {
        when: [
          { sql: (CUBE) => \`\${CUBE}.status IN (\${FULFILLED})\`, label: \`fulfilled\` },
          { sql: (CUBE) => \`\${CUBE}.status = 'processing'\`, label: \`open\` },
        ],
        else: { label: \`lost\` },
      },
    },
    is_completed: { sql: \`\${CUBE}.status = 'completed'\`, type: \`boolean\` },
    created_at: { sql: \`created_at\`, type: \`time\` },
  },
  measures: {
    count: { type: \`count\` },
    completed_count: { type: \`count\`, filters: [{ sql: (CUBE) => \`\${CUBE}.status = 'completed'\` }] },
    completed_share: { type: \`number\`, sql: \`1.0 * \${completed_count} / NULLIF(\${count}, 0)\`, format: \`percent\` },
    customer_count: { type: \`countDistinct\`, sql: \`customer_id\` },
    customer_count_approx: { type: \`countDistinctApprox\`, sql: \`customer_id\` },
  },
  segments: {
    completed: { sql: \`\${CUBE}.status = 'completed'\` },
  },
});
`,
  'model/cubes/line_items.js': `cube('line_items', {
  sqlTable: () => \`\${COMPILE_CONTEXT.prefix}line_items\`,
  joins: {
    orders: { relationship: 'manyToOne', sql: \`\${CUBE}.order_id = \${orders.id}\` },
    products: { relationship: 'belongs_to', sql: \`\${CUBE}.product_id = \${products.id}\` },
  },
  dimensions: {
    id: { sql: 'id', type: 'number', primaryKey: true, public: true },
    quantity: { sql: 'quantity', type: 'number' },
    price: { sql: 'price', type: 'number' },
  },
  measures: {
    count: { type: 'count' },
    total_quantity: { type: 'sum', sql: 'quantity' },
    revenue: { type: 'sum', sql: \`\${CUBE}.quantity * \${CUBE}.price\`, format: 'currency' },
    ...Object.fromEntries(['avg', 'min', 'max'].map((aggregate) => [\`\${aggregate}_price\`, { type: aggregate, sql: 'price' }])),
    order_count: { type: 'countDistinct', sql: 'order_id' },
    revenue_per_order: { type: 'number', sql: \`\${revenue} / NULLIF(\${order_count}, 0)\` },
  },
});
`,
  'model/cubes/products.js': `cube('products', {
  sqlTable: \`\${COMPILE_CONTEXT.prefix}products\`,
  dimensions: {
    id: { sql: 'id', type: 'number', primaryKey: true, public: true },
    name: { sql: 'name', type: 'string' },
    category: { sql: 'category', type: 'string' },
    price: { sql: 'price', type: 'number' },
  },
  measures: {
    count: { type: 'count' },
    avg_price: { type: 'avg', sql: 'price' },
  },
  preAggregations: {
    by_category: { measures: [CUBE.count], dimensions: [CUBE.category] },
  },
});
`,
  'model/views/sales.js': `view('sales', {
  description: 'Line items with their order, customer and product',
  cubes: [
    { joinPath: line_items, includes: ['count', 'revenue', 'total_quantity'] },
    { joinPath: line_items.orders, prefix: true, includes: ['status', 'created_at', 'count'] },
    { joinPath: line_items.orders.customers, prefix: true, includes: ['country', 'city', 'segment'] },
    { joinPath: line_items.products, prefix: true, includes: ['category'] },
  ],
  accessPolicy: [
    {
      group: '*',
      memberLevel: {
        includes: ['count', 'revenue', 'total_quantity', 'orders_status', 'orders_created_at', 'orders_count', 'products_category'],
      },
    },
    {
      group: 'regional',
      rowLevel: { filters: [{ member: 'customers_country', operator: 'equals', values: ['{ userAttributes.country }'] }] },
    },
    { group: 'admin' },
  ],
});
`,
};
