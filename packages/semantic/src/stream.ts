import { QueryError } from './errors.js';
import { offeredRollups, shapeRow, type DataRows, type LoadOptions } from './load.js';
import type { Annotation } from './planner/annotation.js';
import { buildLogicalQuery } from './planner/logical.js';
import { planLogicalOrRollup } from './planner/plan.js';
import { EVERYONE } from './planner/policy.js';
import { normalizeQuery, type NormalizedQuery } from './planner/query.js';
import type { DataModel } from './model.js';

export interface StreamLoadOptions extends LoadOptions {
  /** Rows per batch asked of the warehouse. */
  readonly batchRows?: number;
}

/** A query's answer as batches of rows shaped as the data API shapes them, read as they are consumed. */
export interface StreamedLoad {
  query: NormalizedQuery;
  annotation: Annotation;
  /** Each batch is read from the warehouse when the previous one was consumed. */
  rows: AsyncIterable<DataRows>;
}

/**
 * One query, planned for the caller exactly as `load` plans it (the caller's access policies, the
 * offered rollups), whose rows are streamed from the warehouse instead of gathered. The query's
 * `limit` is kept as given, without the data API's default and maximum: a stream holds one batch
 * at a time, so its size is the consumer's business, not a safeguard of the server's memory.
 */
export function streamLoad(model: DataModel, query: Readonly<Record<string, unknown>>, options: StreamLoadOptions): StreamedLoad {
  const { limit, ...rest } = query;
  if (limit !== undefined && limit !== null && (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0)) {
    throw new QueryError('"limit" must be a non-negative integer');
  }
  if (rest['responseFormat'] === 'compact')
    throw new QueryError('A streamed query answers rows: "responseFormat" "compact" is not supported');
  const now = options.now ?? new Date();
  const normalized = normalizeQuery(rest);
  const logical = buildLogicalQuery(model, normalized, { caller: options.caller ?? EVERYONE, now: () => now });
  const plan = planLogicalOrRollup(
    { ...logical, limit: typeof limit === 'number' ? limit : Infinity },
    options.warehouse.dialect,
    offeredRollups(options),
  );
  const warehouse = plan.rollup && !plan.rollup.inWarehouse ? (options.rollupStore ?? options.warehouse) : options.warehouse;
  const run = { timeoutMs: options.timeoutMs, signal: options.signal, batchRows: options.batchRows };
  async function* rows(): AsyncGenerator<DataRows> {
    if (!warehouse.stream) {
      // A warehouse without a cursor answers whole; the shape of the answer is the same.
      const result = await warehouse.query(plan.sql, plan.params, run);
      yield result.rows.map((row) => shapeRow(row, plan.columns));
      return;
    }
    for await (const batch of warehouse.stream(plan.sql, plan.params, run)) yield batch.map((row) => shapeRow(row, plan.columns));
  }
  return { query: plan.query, annotation: plan.annotation, rows: rows() };
}
