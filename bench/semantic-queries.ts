import type { Query } from '@plinth/semantic';

/** The benchmark's dashboard queries, each with the same answer written by hand in SQL for DuckDB. */
export const QUERIES: Array<{ name: string; query: Query; sql: string }> = [
  {
    name: 'total',
    query: { measures: ['line_items.count', 'line_items.revenue'] },
    sql: 'SELECT count(*), sum(quantity * price) FROM line_items',
  },
  {
    name: 'monthly series',
    query: {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: ['2023-01-01', '2024-12-31'] }],
    },
    sql: "SELECT date_trunc('month', created_at), count(*) FROM orders WHERE created_at >= TIMESTAMP '2023-01-01' AND created_at <= TIMESTAMP '2024-12-31 23:59:59.999' GROUP BY 1 ORDER BY 1",
  },
  {
    name: 'top 10 products by revenue',
    query: { measures: ['line_items.revenue'], dimensions: ['products.name'], order: { 'line_items.revenue': 'desc' }, limit: 10 },
    sql: 'SELECT p.name, sum(li.quantity * li.price) AS revenue FROM line_items li LEFT JOIN products p ON li.product_id = p.id GROUP BY 1 ORDER BY 2 DESC LIMIT 10',
  },
  {
    name: 'filtered two-cube join',
    query: {
      measures: ['line_items.revenue', 'line_items.total_quantity'],
      dimensions: ['orders.status'],
      filters: [
        { member: 'orders.created_at', operator: 'inDateRange', values: ['2024-01-01', '2024-06-30'] },
        { member: 'orders.status', operator: 'notEquals', values: ['cancelled'] },
      ],
    },
    sql: "SELECT o.status, sum(li.quantity * li.price), sum(li.quantity) FROM line_items li LEFT JOIN orders o ON li.order_id = o.id WHERE o.created_at >= TIMESTAMP '2024-01-01' AND o.created_at <= TIMESTAMP '2024-06-30 23:59:59.999' AND (o.status <> 'cancelled' OR o.status IS NULL) GROUP BY 1 ORDER BY 2 DESC",
  },
];
