import type { DataModel, QueryPlan } from '@plinth/semantic';

/**
 * The shortest `refresh_key.every` (in seconds) among the cubes a request's warehouse plans read,
 * the underlying cubes of a view included: how long its answer may be reused, as Cube's refresh
 * keys bound it. A plan a rollup answers is left out, as in Cube: its answer is keyed by the
 * partition versions it read. Undefined when none of the cubes read has an interval `every`, so a
 * query of a cube without one is not cut short by another cube's.
 */
export function refreshEverySeconds(model: DataModel, plans: readonly QueryPlan[]): number | undefined {
  let shortest: number | undefined;
  for (const plan of plans) {
    if (plan.rollup) continue;
    for (const name of plan.cubes) {
      const every = model.cubes.get(name)?.refreshKey?.everySeconds;
      if (every !== undefined && every > 0 && (shortest === undefined || every < shortest)) shortest = every;
    }
  }
  return shortest;
}

/**
 * The slot of `now` (milliseconds) in that interval, for the result cache's key: a cached answer is
 * not found once the slot moves on. Null when nothing caps it.
 */
export function refreshSlot(model: DataModel, plans: readonly QueryPlan[], now: number): string | null {
  const every = refreshEverySeconds(model, plans);
  return every === undefined ? null : `${every}:${Math.floor(now / 1000 / every)}`;
}
