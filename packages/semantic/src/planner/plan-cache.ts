import type { Dialect } from '../dialects/dialect.js';
import type { Caller, DataModel } from '../model.js';
import type { QueryPlan } from './plan.js';

/** Plans kept per model; a dashboard sends a handful of queries again and again. */
const CAPACITY = 256;

const plansByModel = new WeakMap<DataModel, Map<string, QueryPlan>>();

/**
 * The plan for a query, made once per model, warehouse dialect, caller and query text. A compiled
 * model never changes (a new build compiles a new one), so a plan can only go stale through the
 * clock: one whose planning read the time (a relative or open-ended date range) is not kept.
 *
 * A kept plan is a frozen copy: it is handed to every caller that sends the same query, so one that
 * changed its answer's `query` or `annotation` would change everyone's (freezing makes that fail where
 * it is done), and it shares nothing with the query object it was made from, which its sender may
 * go on changing.
 */
export function planOnce(
  model: DataModel,
  dialect: Dialect,
  caller: Caller,
  query: unknown,
  now: Date | undefined,
  plan: (clock: () => Date) => QueryPlan,
  /** Anything else the plan depends on (the rollups offered to it). */
  extra: unknown = [],
): QueryPlan {
  let readTheClock = false;
  const clock = (): Date => {
    readTheClock = true;
    return now ?? new Date();
  };
  const key = cacheKey(dialect, caller, query, extra);
  if (key === undefined) return plan(clock);
  let plans = plansByModel.get(model);
  const kept = plans?.get(key);
  if (kept) {
    // Most recently used last, so the first key is the one to drop when full.
    plans?.delete(key);
    plans?.set(key, kept);
    return kept;
  }
  const made = plan(clock);
  if (readTheClock) return made;
  const frozen = deepFreeze(structuredClone(made));
  if (!plans) plansByModel.set(model, (plans = new Map()));
  plans.set(key, frozen);
  if (plans.size > CAPACITY) plans.delete(plans.keys().next().value as string);
  return frozen;
}

/**
 * The key names everything a plan depends on besides the model. Undefined, so planned every time, for
 * a caller or query that JSON cannot spell in full: JSON would write a Map or a class instance as `{}`
 * and drop a function, and two callers whose security contexts differ only there would share a plan.
 */
function cacheKey(dialect: Dialect, caller: Caller, query: unknown, extra: unknown): string | undefined {
  try {
    return JSON.stringify([dialect.name, caller, query, extra], plainValuesOnly);
  } catch {
    return undefined;
  }
}

function plainValuesOnly(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') throw new TypeError('not JSON');
  if (value === undefined && Array.isArray(this)) throw new TypeError('not JSON');
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) throw new TypeError('not JSON');
  }
  return value;
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
