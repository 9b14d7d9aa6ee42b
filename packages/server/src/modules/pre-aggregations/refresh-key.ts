import type { DataModel, RollupDefinition, Warehouse } from '@plinth/semantic';
import { refreshKeyPlan } from '@plinth/semantic';
import { nextCronRun } from '../../jobs/schedules.js';

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

/**
 * The refresh key's value now: what `refresh_key.sql` answers, else the current slot of `every`
 * (an interval counted from the epoch, or the next slot of a cron expression), as Cube derives it. A
 * partition built under another value is stale.
 */
export async function refreshKeyValue(model: DataModel, definition: RollupDefinition, warehouse: Warehouse, now: number): Promise<string> {
  const { everySeconds, every, hasSql } = definition.refreshKey;
  if (hasSql) {
    const plan = refreshKeyPlan(model, definition.id, warehouse.dialect);
    if (plan) {
      const { rows } = await warehouse.query(plan.sql, plan.params);
      const value = rows[0] ? Object.values(rows[0])[0] : null;
      return `sql:${value instanceof Date ? value.toISOString() : JSON.stringify(value ?? null)}`;
    }
  }
  if (everySeconds !== undefined) return `every:${Math.floor(now / 1000 / everySeconds)}`;
  if (every !== undefined) {
    // The next slot names the current period: it moves on exactly when a slot passes.
    const next = nextCronRun(every, 'UTC', new Date(now));
    return `cron:${next ? next.toISOString() : 'never'}`;
  }
  return `every:${Math.floor(now / DEFAULT_EVERY_MS)}`;
}
