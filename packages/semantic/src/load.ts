import type { Caller, DataModel } from './model.js';
import type { Annotation } from './planner/annotation.js';
import { planQuery, type ResultColumn } from './planner/plan.js';
import type { NormalizedQuery, Query } from './planner/query.js';
import type { QueryOptions, Warehouse } from './drivers/warehouse.js';

export interface LoadOptions extends QueryOptions {
  readonly warehouse: Warehouse;
  readonly caller?: Caller;
  readonly now?: Date;
}

/** The body of Cube's `/cubejs-api/v1/load` answer. */
export interface LoadResponse {
  query: NormalizedQuery;
  data: Array<Record<string, unknown>>;
  annotation: Annotation;
  total?: number;
}

/** Plans the query for the caller, runs it, and shapes rows the way Cube's data API does. */
export async function load(model: DataModel, query: Query | unknown, options: LoadOptions): Promise<LoadResponse> {
  const { warehouse } = options;
  const plan = planQuery(model, query, { dialect: warehouse.dialect, caller: options.caller, now: options.now });
  const run = { timeoutMs: options.timeoutMs, signal: options.signal };
  const [result, total] = await Promise.all([
    warehouse.query(plan.sql, plan.params, run),
    plan.total ? warehouse.query(plan.total.sql, plan.total.params, run) : undefined,
  ]);
  const response: LoadResponse = {
    query: plan.query,
    data: result.rows.map((row) => shapeRow(row, plan.columns)),
    annotation: plan.annotation,
  };
  if (total) response.total = Number(total.rows[0]?.['total'] ?? 0);
  return response;
}

export function shapeRow(row: Readonly<Record<string, unknown>>, columns: readonly ResultColumn[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of columns) {
    const value = formatValue(row[c.alias], c.type);
    for (const key of c.keys) out[key] = value;
  }
  return out;
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?)?/;

/** Numbers as strings (Cube's convention, safe for big integers), times as local ISO without zone. */
export function formatValue(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'time') {
    const text = value instanceof Date ? value.toISOString() : String(value);
    const m = TIMESTAMP.exec(text);
    if (!m) return text;
    return `${m[1]}T${m[2] ?? '00:00:00'}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}`;
  }
  if (type === 'number') return typeof value === 'string' ? value : String(value);
  return value;
}
