import type { Query, ResultColumn } from '@plinth/semantic';

/**
 * A cube the sample model lacks, added for the benchmark: a `number` measure whose formula takes a
 * measure of another cube across a one-to-many join (Cube's cross-cube number measure).
 */
export const BENCH_MODEL_FILES: Record<string, string> = {
  'model/order_facts.yml': `cubes:
  - name: order_facts
    sql_table: orders
    joins:
      - name: line_items
        relationship: one_to_many
        sql: "{CUBE}.id = {line_items}.order_id"
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: status
        type: string
    measures:
      - name: count
        type: count
      - name: revenue_per_order
        type: number
        sql: "{line_items.revenue} / NULLIF({count}, 0)"
`,
};

/**
 * The benchmark's dashboard queries, each with the same answer written by hand in SQL for DuckDB, in
 * the engine's column order (dimensions, then measures) and row order, so the two can be compared.
 */
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
  {
    // customers → orders → line_items, both one-to-many: customers are counted once per quantity,
    // however many orders and line items they have. By hand: the distinct (customer, quantity)
    // pairs first, then one join to customers; a customer without orders or line items counts
    // under a null quantity, as the engine's left joins give.
    name: 'two-hop fan-out',
    query: { measures: ['customers.count'], dimensions: ['line_items.quantity'], order: { 'line_items.quantity': 'asc' } },
    sql: 'SELECT q.quantity, count(*) FROM customers c LEFT JOIN (SELECT DISTINCT o.customer_id, li.quantity FROM orders o LEFT JOIN line_items li ON li.order_id = o.id) q ON q.customer_id = c.id GROUP BY 1 ORDER BY 1 ASC NULLS LAST',
  },
  {
    // Revenue of line items over the count of orders, per order status: line items aggregated by
    // order first, so each order is counted once.
    name: 'cross-cube number measure',
    query: { measures: ['order_facts.revenue_per_order'], dimensions: ['order_facts.status'], order: { 'order_facts.status': 'asc' } },
    sql: 'SELECT o.status, sum(r.revenue) / NULLIF(count(*), 0) FROM orders o LEFT JOIN (SELECT order_id, sum(quantity * price) AS revenue FROM line_items GROUP BY 1) r ON r.order_id = o.id GROUP BY 1 ORDER BY 1 ASC',
  },
];

/**
 * Why the engine's rows (shaped, keyed by member; `columns` from its plan) differ from the hand-written SQL's rows (arrays, in
 * the same column order), or undefined when they do not. Numbers compare with a relative tolerance of 1e-9, since the engine and
 * the hand-written SQL may sum doubles in a different order; times compare without zone or zero
 * milliseconds.
 */
export function sameAnswer(
  engine: ReadonlyArray<Record<string, unknown>>,
  columns: readonly ResultColumn[],
  hand: ReadonlyArray<readonly unknown[]>,
): string | undefined {
  if (engine.length !== hand.length) return `${engine.length} rows from the engine, ${hand.length} by hand`;
  for (const [index, row] of engine.entries()) {
    const engineCells = columns.map((column) => normalise(row[column.keys[0] ?? '']));
    const handCells = (hand[index] ?? []).map(normalise);
    const same = engineCells.length === handCells.length && engineCells.every((cell, column) => sameCell(cell, handCells[column]));
    if (!same) return `row ${index}: engine ${JSON.stringify(engineCells)}, by hand ${JSON.stringify(handCells)}`;
  }
  return undefined;
}

function normalise(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return String(value).replace(/^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.0+)?$/, '$1 $2');
}

function sameCell(engine: string | null, hand: string | null | undefined): boolean {
  if (engine === null || hand === null || hand === undefined) return engine === (hand ?? null);
  if (engine === hand) return true;
  const [a, b] = [Number(engine), Number(hand)];
  return Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}
