import type { DataModel, QueryPlan } from '@plinth/semantic';
import { nextCronRun } from '../../jobs/schedules.js';

/** The cubes whose rows a request's warehouse plans read; a plan a rollup answers is keyed by the partition versions it read instead, as in Cube. */
function cubesRead(plans: readonly QueryPlan[]): Set<string> {
  return new Set(plans.flatMap((plan) => (plan.rollup ? [] : plan.cubes)));
}

/**
 * The shortest interval `refresh_key.every` (in seconds) among the cubes a request's warehouse plans
 * read, the underlying cubes of a view included: the longest its answer is reused, as Cube's
 * refresh keys bound it. Undefined when none of them has one, so a query of a cube without one is
 * not cut short by another cube's.
 */
export function refreshEverySeconds(model: DataModel, plans: readonly QueryPlan[]): number | undefined {
  let shortest: number | undefined;
  for (const name of cubesRead(plans)) {
    const every = model.cubes.get(name)?.refreshKey?.everySeconds;
    if (every !== undefined && every > 0 && (shortest === undefined || every < shortest)) shortest = every;
  }
  return shortest;
}

/**
 * For the result cache's key: the current slot of `now` (milliseconds) in each `every` of the cubes
 * read (an interval counted from the epoch, or the next run of a cron expression, in UTC as the
 * rollups' keys are), so a cached answer is not found once any of them moves on. Null when none has one.
 */
export function refreshSlots(model: DataModel, plans: readonly QueryPlan[], now: number): string[] | null {
  const slots: string[] = [];
  for (const name of [...cubesRead(plans)].sort()) {
    const key = model.cubes.get(name)?.refreshKey;
    if (key?.everySeconds !== undefined && key.everySeconds > 0) slots.push(`${name}:${Math.floor(now / 1000 / key.everySeconds)}`);
    else if (key?.every !== undefined && key.everySeconds === undefined) {
      slots.push(`${name}:${nextCronRun(key.every, 'UTC', new Date(now))?.toISOString() ?? 'never'}`);
    }
  }
  return slots.length ? slots : null;
}
