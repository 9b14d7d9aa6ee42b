import type { Dialect } from '../dialects/dialect.js';
import type { DataModel } from '../model.js';
import type { RollupBuildOptions, RollupBuildPlan, SqlPlan } from './types.js';

/**
 * SQL for the source warehouse that produces the rows of one partition of a rollup (every row when
 * unpartitioned or when `partition` is left out), grouped at the rollup's granularity.
 */
export function rollupBuildPlan(
  model: DataModel,
  id: string,
  dialect: Dialect,
  partition?: { readonly start: string; readonly end: string },
  options: RollupBuildOptions = {},
): RollupBuildPlan {
  void [model, id, dialect, partition, options];
  throw new Error('not yet');
}

/** One row, columns `start` and `end` (wall-clock timestamps or null): the range partitions are built over. */
export function rollupRangePlan(model: DataModel, id: string, dialect: Dialect, options: RollupBuildOptions = {}): SqlPlan {
  void [model, id, dialect, options];
  throw new Error('not yet');
}

/** One row, one column `value`: the `refresh_key.sql` value of a rollup id or a cube name; undefined without one. */
export function refreshKeyPlan(model: DataModel, id: string, dialect: Dialect): SqlPlan | undefined {
  void [model, id, dialect];
  throw new Error('not yet');
}
