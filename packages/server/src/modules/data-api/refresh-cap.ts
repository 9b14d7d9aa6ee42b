import type { DataModel, QueryPlan } from '@plinth/semantic';
import { everyPeriod } from '../../jobs/schedules.js';

/** The cubes whose rows a request's warehouse plans read; a plan a rollup answers is keyed by the partition versions it read instead, as in Cube. */
function cubesRead(plans: readonly QueryPlan[]): Set<string> {
  return new Set(plans.flatMap((plan) => (plan.rollup ? [] : plan.cubes)));
}

/** Whether any cube of the model has a `refresh_key.every`: without one no answer needs its plans for the key. */
export function hasRefreshEvery(model: DataModel): boolean {
  for (const cube of model.cubes.values()) if (cube.refreshKey?.every !== undefined) return true;
  return false;
}

/**
 * For the result cache's key: the current slot of `now` (milliseconds) in each `every` of the cubes
 * read (an interval counted from the epoch, or the next run of a cron expression, in UTC as the
 * rollups' keys are), so a cached answer is not found once any of them moves on; its shortest
 * every is then the longest an answer is reused, as Cube's refresh keys bound it, and a cube
 * without one is never cut short by another's. Null when none of the cubes read has one.
 */
export function refreshSlots(model: DataModel, plans: readonly QueryPlan[], now: number): string[] | null {
  const slots: string[] = [];
  for (const name of [...cubesRead(plans)].sort()) {
    const key = model.cubes.get(name)?.refreshKey;
    const period = key && everyPeriod(key, now);
    if (period) slots.push(`${name}:${period}`);
  }
  return slots.length ? slots : null;
}
