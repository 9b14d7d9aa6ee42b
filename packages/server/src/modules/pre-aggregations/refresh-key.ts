import type { DataModel, RollupDefinition, Warehouse } from '@plinth/semantic';
import { refreshKeyPlan } from '@plinth/semantic';
import { everyPeriod } from '../../jobs/schedules.js';

/** Without `refresh_key`, a rollup is looked at hourly, as Cube's pre-aggregations are. */
export const DEFAULT_EVERY_MS = 3_600_000;
/** How often a `refresh_key.sql` without `every` is run (Cube checks it every 10 seconds). */
export const SQL_CHECK_MS = 10_000;
/** A cron `every` is looked at each minute: its value changes at its slots. */
const CRON_CHECK_MS = 60_000;

/** How often the refresh schedule looks at a rollup: the throttle on its `refresh_key.sql`, or its `every`. */
export function checkIntervalMs(definition: RollupDefinition): number {
  const { everySeconds, every, hasSql } = definition.refreshKey;
  if (everySeconds !== undefined) return Math.max(1000, everySeconds * 1000);
  if (every !== undefined) return CRON_CHECK_MS;
  return hasSql ? SQL_CHECK_MS : DEFAULT_EVERY_MS;
}

/** A partition's range as the refresh key reads it: none for an unpartitioned rollup. */
export type KeyRange = { readonly start: string; readonly end: string } | undefined;

/** The refresh key value of one partition (or of the whole rollup), as one refresh reads it. */
export type RefreshKeyReader = (range: KeyRange) => Promise<string>;

/**
 * Reads refresh key values for one refresh of a rollup at `now`: what `refresh_key.sql` answers for
 * the partition (its `FILTER_PARAMS` of the time dimension read the partition's range, so a month
 * whose rows did not change keeps its value), else the current slot of `every` (an interval
 * counted from the epoch, or the next slot of a cron expression), as Cube derives it. A partition
 * built under another value is stale. The same SQL and parameters run once per refresh: a key that
 * does not read the range costs one query however many partitions there are.
 */
export function refreshKeyReader(model: DataModel, definition: RollupDefinition, warehouse: Warehouse, now: number): RefreshKeyReader {
  const { hasSql } = definition.refreshKey;
  const answers = new Map<string, Promise<string>>();
  return async (range) => {
    const plan = hasSql ? refreshKeyPlan(model, definition.id, warehouse.dialect, range) : undefined;
    if (plan) {
      const key = JSON.stringify([plan.sql, plan.params]);
      let answer = answers.get(key);
      if (!answer) answers.set(key, (answer = sqlValue(warehouse, plan.sql, plan.params)));
      return answer;
    }
    return everyPeriod(definition.refreshKey, now) ?? `every:${Math.floor(now / DEFAULT_EVERY_MS)}`;
  };
}

async function sqlValue(warehouse: Warehouse, sql: string, params: readonly unknown[]): Promise<string> {
  const { rows } = await warehouse.query(sql, params);
  const value = rows[0] ? Object.values(rows[0])[0] : null;
  if (value instanceof Date) return `sql:${value.toISOString()}`;
  // A count from DuckDB is a bigint, which JSON cannot spell.
  return `sql:${typeof value === 'bigint' ? value.toString() : JSON.stringify(value ?? null)}`;
}
