/**
 * SQL over the sample model and the JSON query each means: the SQL API's answer must be the data
 * API's answer to the query, its columns being the load rows' `keys` in order. A query with `order`
 * is compared row by row, any other as a set of rows.
 */
export interface SqlEquivalent {
  sql: string;
  query: Record<string, unknown>;
  keys: string[];
}

const eq = (sql: string, query: Record<string, unknown>, keys: string[]): SqlEquivalent => ({ sql, query, keys });
const f = (member: string, operator: string, values?: string[]) => ({ member, operator, ...(values ? { values } : {}) });

export const EQUIVALENTS: SqlEquivalent[] = [
  eq('SELECT MEASURE(count) FROM orders', { measures: ['orders.count'] }, ['orders.count']),
  eq('SELECT COUNT(*) FROM orders', { measures: ['orders.count'] }, ['orders.count']),
  eq('SELECT COUNT(1), MEASURE(customer_count) FROM orders', { measures: ['orders.count', 'orders.customer_count'] }, [
    'orders.count',
    'orders.customer_count',
  ]),
  eq('SELECT status, MEASURE(count) FROM orders GROUP BY 1', { measures: ['orders.count'], dimensions: ['orders.status'] }, [
    'orders.status',
    'orders.count',
  ]),
  eq(
    'SELECT o.status, COUNT(*) FROM orders AS o GROUP BY o.status ORDER BY 2 DESC, 1',
    {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      order: [
        ['orders.count', 'desc'],
        ['orders.status', 'asc'],
      ],
    },
    ['orders.status', 'orders.count'],
  ),
  eq('SELECT "status", MEASURE("count") FROM "orders" GROUP BY "status"', { measures: ['orders.count'], dimensions: ['orders.status'] }, [
    'orders.status',
    'orders.count',
  ]),
  eq(
    'SELECT status_group, status, MEASURE(completed_count) FROM orders GROUP BY 1, 2',
    { measures: ['orders.completed_count'], dimensions: ['orders.status_group', 'orders.status'] },
    ['orders.status_group', 'orders.status', 'orders.completed_count'],
  ),
  eq(
    'SELECT is_completed, MEASURE(completed_share) FROM orders GROUP BY 1',
    { measures: ['orders.completed_share'], dimensions: ['orders.is_completed'] },
    ['orders.is_completed', 'orders.completed_share'],
  ),
  eq('SELECT DISTINCT status FROM orders', { dimensions: ['orders.status'] }, ['orders.status']),
  eq('SELECT status FROM orders GROUP BY 1 ORDER BY 1 DESC', { dimensions: ['orders.status'], order: [['orders.status', 'desc']] }, [
    'orders.status',
  ]),
  eq(
    'SELECT id, status FROM orders ORDER BY id LIMIT 20',
    { dimensions: ['orders.id', 'orders.status'], ungrouped: true, order: [['orders.id', 'asc']], limit: 20 },
    ['orders.id', 'orders.status'],
  ),
  eq(
    'SELECT id FROM orders ORDER BY id LIMIT 5 OFFSET 10',
    { dimensions: ['orders.id'], ungrouped: true, order: [['orders.id', 'asc']], limit: 5, offset: 10 },
    ['orders.id'],
  ),
  eq(
    "SELECT DATE_TRUNC('month', created_at), COUNT(*) FROM orders GROUP BY 1 ORDER BY 1",
    {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
      order: [['orders.created_at', 'asc']],
    },
    ['orders.created_at.month', 'orders.count'],
  ),
  eq(
    "SELECT date_trunc('year', created_at) AS y, MEASURE(count) FROM orders GROUP BY y ORDER BY y",
    {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'year' }],
      order: [['orders.created_at', 'asc']],
    },
    ['orders.created_at.year', 'orders.count'],
  ),
  eq(
    "SELECT DATE_TRUNC('quarter', created_at), DATE_TRUNC('week', created_at), MEASURE(count) FROM orders GROUP BY 1, 2",
    {
      measures: ['orders.count'],
      timeDimensions: [
        { dimension: 'orders.created_at', granularity: 'quarter' },
        { dimension: 'orders.created_at', granularity: 'week' },
      ],
    },
    ['orders.created_at.quarter', 'orders.created_at.week', 'orders.count'],
  ),
  eq(
    "SELECT DATE_TRUNC('day', created_at), COUNT(*) FROM orders WHERE created_at BETWEEN '2024-01-01' AND '2024-01-31' GROUP BY 1",
    {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'day', dateRange: ['2024-01-01', '2024-01-31'] }],
    },
    ['orders.created_at.day', 'orders.count'],
  ),
  eq(
    "SELECT COUNT(*) FROM orders WHERE created_at BETWEEN TIMESTAMP '2024-01-01' AND DATE '2024-06-30'",
    { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2024-01-01', '2024-06-30'] }] },
    ['orders.count'],
  ),
  eq(
    "SELECT COUNT(*) FROM orders WHERE created_at >= '2024-01-01' AND created_at < '2024-07-01'",
    {
      measures: ['orders.count'],
      filters: [f('orders.created_at', 'afterOrOnDate', ['2024-01-01']), f('orders.created_at', 'beforeDate', ['2024-07-01'])],
    },
    ['orders.count'],
  ),
  eq(
    "SELECT COUNT(*) FROM orders WHERE created_at > '2024-03-01'::timestamp",
    { measures: ['orders.count'], filters: [f('orders.created_at', 'afterDate', ['2024-03-01'])] },
    ['orders.count'],
  ),
  eq(
    "SELECT COUNT(*) FROM orders WHERE created_at <= CAST('2023-12-31' AS DATE)",
    { measures: ['orders.count'], filters: [f('orders.created_at', 'beforeOrOnDate', ['2023-12-31'])] },
    ['orders.count'],
  ),
  eq(
    "SELECT status, COUNT(*) FROM orders WHERE status = 'completed' GROUP BY 1",
    { measures: ['orders.count'], dimensions: ['orders.status'], filters: [f('orders.status', 'equals', ['completed'])] },
    ['orders.status', 'orders.count'],
  ),
  eq(
    "SELECT status, COUNT(*) FROM orders WHERE status <> 'completed' GROUP BY 1",
    { measures: ['orders.count'], dimensions: ['orders.status'], filters: [f('orders.status', 'notEquals', ['completed'])] },
    ['orders.status', 'orders.count'],
  ),
  eq(
    "SELECT status, COUNT(*) FROM orders WHERE status != 'returned' GROUP BY 1",
    { measures: ['orders.count'], dimensions: ['orders.status'], filters: [f('orders.status', 'notEquals', ['returned'])] },
    ['orders.status', 'orders.count'],
  ),
  eq(
    "SELECT status, COUNT(*) FROM orders WHERE status IN ('completed', 'shipped') GROUP BY 1",
    { measures: ['orders.count'], dimensions: ['orders.status'], filters: [f('orders.status', 'equals', ['completed', 'shipped'])] },
    ['orders.status', 'orders.count'],
  ),
  eq(
    "SELECT status, COUNT(*) FROM orders WHERE status NOT IN ('completed', 'shipped') GROUP BY 1",
    { measures: ['orders.count'], dimensions: ['orders.status'], filters: [f('orders.status', 'notEquals', ['completed', 'shipped'])] },
    ['orders.status', 'orders.count'],
  ),
  eq(
    "SELECT status, COUNT(*) FROM orders WHERE status LIKE '%ed' GROUP BY 1",
    { measures: ['orders.count'], dimensions: ['orders.status'], filters: [f('orders.status', 'endsWith', ['ed'])] },
    ['orders.status', 'orders.count'],
  ),
  eq(
    "SELECT status, COUNT(*) FROM orders WHERE status LIKE 'c%' GROUP BY 1",
    { measures: ['orders.count'], dimensions: ['orders.status'], filters: [f('orders.status', 'startsWith', ['c'])] },
    ['orders.status', 'orders.count'],
  ),
  eq(
    "SELECT status, COUNT(*) FROM orders WHERE status ILIKE '%PLE%' GROUP BY 1",
    { measures: ['orders.count'], dimensions: ['orders.status'], filters: [f('orders.status', 'contains', ['PLE'])] },
    ['orders.status', 'orders.count'],
  ),
  eq(
    "SELECT status, COUNT(*) FROM orders WHERE status NOT LIKE '%ship%' GROUP BY 1",
    { measures: ['orders.count'], dimensions: ['orders.status'], filters: [f('orders.status', 'notContains', ['ship'])] },
    ['orders.status', 'orders.count'],
  ),
  eq(
    'SELECT status, COUNT(*) FROM orders WHERE status IS NOT NULL GROUP BY 1',
    { measures: ['orders.count'], dimensions: ['orders.status'], filters: [f('orders.status', 'set')] },
    ['orders.status', 'orders.count'],
  ),
  eq('SELECT COUNT(*) FROM orders WHERE created_at IS NULL', { measures: ['orders.count'], filters: [f('orders.created_at', 'notSet')] }, [
    'orders.count',
  ]),
  eq(
    'SELECT COUNT(*) FROM orders WHERE id > 100 AND id <= 2000',
    { measures: ['orders.count'], filters: [f('orders.id', 'gt', ['100']), f('orders.id', 'lte', ['2000'])] },
    ['orders.count'],
  ),
  eq('SELECT COUNT(*) FROM orders WHERE 500 > id', { measures: ['orders.count'], filters: [f('orders.id', 'lt', ['500'])] }, [
    'orders.count',
  ]),
  eq(
    'SELECT COUNT(*) FROM orders WHERE id BETWEEN 10 AND 20',
    { measures: ['orders.count'], filters: [{ and: [f('orders.id', 'gte', ['10']), f('orders.id', 'lte', ['20'])] }] },
    ['orders.count'],
  ),
  eq(
    'SELECT COUNT(*) FROM orders WHERE id NOT BETWEEN 10 AND 4000',
    { measures: ['orders.count'], filters: [{ or: [f('orders.id', 'lt', ['10']), f('orders.id', 'gt', ['4000'])] }] },
    ['orders.count'],
  ),
  eq(
    "SELECT status, COUNT(*) FROM orders WHERE status = 'completed' OR (status = 'returned' AND id < 3000) GROUP BY 1",
    {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      filters: [
        {
          or: [
            f('orders.status', 'equals', ['completed']),
            { and: [f('orders.status', 'equals', ['returned']), f('orders.id', 'lt', ['3000'])] },
          ],
        },
      ],
    },
    ['orders.status', 'orders.count'],
  ),
  eq(
    'SELECT COUNT(*) FROM orders WHERE is_completed',
    { measures: ['orders.count'], filters: [f('orders.is_completed', 'equals', ['true'])] },
    ['orders.count'],
  ),
  eq(
    'SELECT status, COUNT(*) FROM orders WHERE completed GROUP BY 1',
    { measures: ['orders.count'], dimensions: ['orders.status'], segments: ['orders.completed'] },
    ['orders.status', 'orders.count'],
  ),
  eq('SELECT COUNT(*) FROM orders WHERE completed = TRUE', { measures: ['orders.count'], segments: ['orders.completed'] }, [
    'orders.count',
  ]),
  eq(
    'SELECT status, COUNT(*) FROM orders GROUP BY 1 HAVING COUNT(*) > 600',
    { measures: ['orders.count'], dimensions: ['orders.status'], filters: [f('orders.count', 'gt', ['600'])] },
    ['orders.status', 'orders.count'],
  ),
  eq(
    'SELECT status, MEASURE(count) FROM orders GROUP BY 1 HAVING MEASURE(count) BETWEEN 100 AND 1000',
    {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      filters: [{ and: [f('orders.count', 'gte', ['100']), f('orders.count', 'lte', ['1000'])] }],
    },
    ['orders.status', 'orders.count'],
  ),
  eq(
    'SELECT status, COUNT(*) FROM orders GROUP BY 1 ORDER BY MEASURE(count) DESC LIMIT 2',
    { measures: ['orders.count'], dimensions: ['orders.status'], order: [['orders.count', 'desc']], limit: 2 },
    ['orders.status', 'orders.count'],
  ),
  eq(
    'SELECT status FROM orders GROUP BY status ORDER BY COUNT(*) DESC, status LIMIT 3',
    {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      order: [
        ['orders.count', 'desc'],
        ['orders.status', 'asc'],
      ],
      limit: 3,
    },
    ['orders.status'],
  ),
  eq(
    'SELECT status, MEASURE(count) FROM orders GROUP BY status, id ORDER BY 2 DESC, 1 LIMIT 5',
    {
      measures: ['orders.count'],
      dimensions: ['orders.status', 'orders.id'],
      order: [
        ['orders.count', 'desc'],
        ['orders.status', 'asc'],
      ],
      limit: 5,
    },
    ['orders.status', 'orders.count'],
  ),
  eq(
    'SELECT city, country, MEASURE(count) FROM customers GROUP BY 1, 2',
    { measures: ['customers.count'], dimensions: ['customers.city', 'customers.country'] },
    ['customers.city', 'customers.country', 'customers.count'],
  ),
  eq(
    'SELECT segment, COUNT(*) FROM customers WHERE in_usa GROUP BY 1',
    { measures: ['customers.count'], dimensions: ['customers.segment'], segments: ['customers.in_usa'] },
    ['customers.segment', 'customers.count'],
  ),
  eq(
    'SELECT SUM(total_quantity), SUM(revenue), AVG(avg_price), MIN(min_price), MAX(max_price), COUNT(DISTINCT order_count) FROM line_items',
    {
      measures: [
        'line_items.total_quantity',
        'line_items.revenue',
        'line_items.avg_price',
        'line_items.min_price',
        'line_items.max_price',
        'line_items.order_count',
      ],
    },
    [
      'line_items.total_quantity',
      'line_items.revenue',
      'line_items.avg_price',
      'line_items.min_price',
      'line_items.max_price',
      'line_items.order_count',
    ],
  ),
  eq('SELECT MEASURE(revenue_per_order) FROM line_items', { measures: ['line_items.revenue_per_order'] }, ['line_items.revenue_per_order']),
  eq(
    'SELECT category, MEASURE(avg_price), COUNT(*) FROM products GROUP BY 1',
    { measures: ['products.avg_price', 'products.count'], dimensions: ['products.category'] },
    ['products.category', 'products.avg_price', 'products.count'],
  ),
  eq(
    'SELECT products_category, SUM(revenue), MEASURE(total_quantity) FROM sales GROUP BY 1 ORDER BY 2 DESC',
    { measures: ['sales.revenue', 'sales.total_quantity'], dimensions: ['sales.products_category'], order: [['sales.revenue', 'desc']] },
    ['sales.products_category', 'sales.revenue', 'sales.total_quantity'],
  ),
  eq(
    "SELECT orders_status, MEASURE(orders_count) FROM sales WHERE products_category LIKE '%o%' GROUP BY 1",
    { measures: ['sales.orders_count'], dimensions: ['sales.orders_status'], filters: [f('sales.products_category', 'contains', ['o'])] },
    ['sales.orders_status', 'sales.orders_count'],
  ),
  eq(
    "SELECT DATE_TRUNC('month', orders_created_at), MEASURE(revenue) FROM sales WHERE orders_created_at BETWEEN '2024-01-01' AND '2024-12-31' GROUP BY 1 ORDER BY 1",
    {
      measures: ['sales.revenue'],
      timeDimensions: [{ dimension: 'sales.orders_created_at', granularity: 'month', dateRange: ['2024-01-01', '2024-12-31'] }],
      order: [['sales.orders_created_at', 'asc']],
    },
    ['sales.orders_created_at.month', 'sales.revenue'],
  ),
  eq(
    'SELECT c.city, MEASURE(o.count) FROM orders o CROSS JOIN customers c GROUP BY 1',
    { measures: ['orders.count'], dimensions: ['customers.city'] },
    ['customers.city', 'orders.count'],
  ),
  eq(
    'SELECT c.country, o.status, COUNT(*) FROM orders o LEFT JOIN customers c ON o.__cubeJoinField = c.__cubeJoinField GROUP BY 1, 2',
    { measures: ['orders.count'], dimensions: ['customers.country', 'orders.status'] },
    ['customers.country', 'orders.status', 'orders.count'],
  ),
  eq(
    "SELECT p.category, SUM(l.revenue) FROM line_items l JOIN products p ON l.__cubeJoinField = p.__cubeJoinField WHERE p.category <> 'x' GROUP BY 1",
    { measures: ['line_items.revenue'], dimensions: ['products.category'], filters: [f('products.category', 'notEquals', ['x'])] },
    ['products.category', 'line_items.revenue'],
  ),
  eq(
    "SELECT customers.segment, MEASURE(orders.count) FROM orders, customers WHERE orders.status = 'completed' GROUP BY 1",
    { measures: ['orders.count'], dimensions: ['customers.segment'], filters: [f('orders.status', 'equals', ['completed'])] },
    ['customers.segment', 'orders.count'],
  ),
  eq('SELECT public.orders.status, COUNT(*) FROM public.orders GROUP BY 1', { measures: ['orders.count'], dimensions: ['orders.status'] }, [
    'orders.status',
    'orders.count',
  ]),
  eq(
    'SELECT * FROM products ORDER BY id LIMIT 10',
    {
      dimensions: ['products.id', 'products.name', 'products.category', 'products.price'],
      measures: ['products.count', 'products.avg_price'],
      order: [['products.id', 'asc']],
      limit: 10,
    },
    ['products.id', 'products.name', 'products.category', 'products.price', 'products.count', 'products.avg_price'],
  ),
];
