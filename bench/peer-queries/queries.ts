import type { Query } from '../../packages/semantic/src/index.js';

/**
 * The side-by-side set: queries a dashboard over the sample model sends, one per shape the planner
 * treats differently (plain groups, many-to-one hops, one-to-many fan-outs with and without filters
 * on either side, distinct counts, derived measures, segments, measure filters, date ranges at each
 * granularity, top-N). Cube's SQL for each is in cube-sql.json, made by cube-sql.cjs.
 */
export const PEER_QUERIES: Array<{ name: string; query: Query }> = [
  { name: 'orders by status', query: { measures: ['orders.count'], dimensions: ['orders.status'] } },
  {
    name: 'orders by month',
    query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }] },
  },
  { name: 'revenue by category', query: { measures: ['line_items.revenue'], dimensions: ['products.category'] } },
  { name: 'revenue by order status', query: { measures: ['line_items.revenue'], dimensions: ['orders.status'] } },
  {
    name: 'quantity by customer segment (two hops)',
    query: { measures: ['line_items.total_quantity'], dimensions: ['customers.segment'] },
  },
  {
    name: 'orders and revenue by status (fan-out)',
    query: { measures: ['orders.count', 'line_items.revenue'], dimensions: ['orders.status'] },
  },
  {
    name: 'orders and revenue, near-side filter',
    query: {
      measures: ['orders.count', 'line_items.revenue'],
      dimensions: ['orders.status'],
      filters: [{ member: 'orders.status', operator: 'equals', values: ['processing'] }],
    },
  },
  {
    name: 'orders and quantity in one month by day',
    query: {
      measures: ['orders.count', 'line_items.total_quantity'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'day', dateRange: ['2024-03-01', '2024-03-31'] }],
    },
  },
  {
    name: 'orders and revenue by month in 2024, two statuses',
    query: {
      measures: ['orders.count', 'line_items.revenue'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: ['2024-01-01', '2024-12-31'] }],
      filters: [{ member: 'orders.status', operator: 'equals', values: ['completed', 'shipped'] }],
    },
  },
  {
    name: 'customers and orders by city (fan-out)',
    query: { measures: ['customers.count', 'orders.count'], dimensions: ['customers.city'] },
  },
  {
    name: 'customers and orders by city, two countries',
    query: {
      measures: ['customers.count', 'orders.count'],
      dimensions: ['customers.city'],
      filters: [{ member: 'customers.country', operator: 'equals', values: ['UK', 'USA'] }],
    },
  },
  {
    name: 'customers, orders and items by country (two fan-outs)',
    query: { measures: ['customers.count', 'orders.count', 'line_items.count'], dimensions: ['customers.country'] },
  },
  {
    name: 'customers and revenue by segment (two hops fan-out)',
    query: { measures: ['customers.count', 'line_items.revenue'], dimensions: ['customers.segment'] },
  },
  { name: 'distinct customers by status', query: { measures: ['orders.customer_count'], dimensions: ['orders.status'] } },
  // count_distinct_approx is left out: Cube writes it with the `hll` extension, which PostgreSQL lacks by default.
  {
    name: 'distinct customers by month',
    query: { measures: ['orders.customer_count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }] },
  },
  {
    name: 'average and extreme prices by category',
    query: { measures: ['line_items.avg_price', 'line_items.min_price', 'line_items.max_price'], dimensions: ['products.category'] },
  },
  { name: 'revenue per order by status', query: { measures: ['line_items.revenue_per_order'], dimensions: ['orders.status'] } },
  {
    name: 'completed share by quarter',
    query: {
      measures: ['orders.completed_count', 'orders.completed_share'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'quarter' }],
    },
  },
  { name: 'orders by status group (case)', query: { measures: ['orders.count'], dimensions: ['orders.status_group'] } },
  {
    name: 'items over a quantity by status (far-side filter)',
    query: {
      measures: ['orders.count', 'line_items.count'],
      dimensions: ['orders.status'],
      filters: [{ member: 'line_items.quantity', operator: 'gt', values: ['2'] }],
    },
  },
  {
    name: 'orders by week in a quarter',
    query: {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'week', dateRange: ['2024-01-01', '2024-03-31'] }],
    },
  },
  {
    name: 'top 10 customers by revenue',
    query: { measures: ['line_items.revenue'], dimensions: ['customers.name'], order: { 'line_items.revenue': 'desc' }, limit: 10 },
  },
  {
    name: 'completed orders by country (segment)',
    query: { measures: ['orders.count'], dimensions: ['customers.country'], segments: ['orders.completed'] },
  },
  {
    name: 'UK revenue by month',
    query: {
      measures: ['line_items.revenue'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
      filters: [{ member: 'customers.country', operator: 'equals', values: ['UK'] }],
    },
  },
  {
    name: 'cities with more than 400 orders (measure filter)',
    query: {
      measures: ['customers.count', 'orders.count'],
      dimensions: ['customers.city'],
      filters: [{ member: 'orders.count', operator: 'gt', values: ['400'] }],
    },
  },
  {
    name: 'top 5 countries by orders',
    query: { measures: ['orders.count'], dimensions: ['customers.country'], order: { 'orders.count': 'desc' }, limit: 5 },
  },
  {
    name: 'revenue by year, two categories',
    query: {
      measures: ['line_items.revenue'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'year' }],
      filters: [{ member: 'products.category', operator: 'equals', values: ['Books', 'Garden'] }],
    },
  },
  {
    name: 'orders before 2024',
    query: { measures: ['orders.count'], filters: [{ member: 'orders.created_at', operator: 'beforeDate', values: ['2024-01-01'] }] },
  },
  { name: 'US customers (segment)', query: { measures: ['customers.count'], segments: ['customers.in_usa'] } },
  {
    name: 'top 20 products by revenue',
    query: { measures: ['line_items.revenue'], dimensions: ['products.name'], order: { 'line_items.revenue': 'desc' }, limit: 20 },
  },
  {
    name: 'orders and revenue of a customer segment, fan-out under a filter two hops away',
    query: {
      measures: ['orders.count', 'line_items.revenue'],
      dimensions: ['orders.status'],
      filters: [{ member: 'customers.segment', operator: 'equals', values: ['corporate'] }],
    },
  },
  { name: 'count of everything', query: { measures: ['customers.count', 'orders.count', 'line_items.count', 'products.count'] } },
];
