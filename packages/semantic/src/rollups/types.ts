import type { Granularity } from '../planner/query.js';

/**
 * What the server needs to build, store, refresh and read a pre-aggregation, independent of the
 * warehouse. Times are wall-clock ISO strings (`2024-01-01T00:00:00.000`) in the rollup's time zone;
 * ranges are half-open: `start` included, `end` excluded.
 */

export type RollupType = 'rollup' | 'original_sql' | 'rollup_join';

/**
 * How a stored column is read back. `dimension` and `time` columns group; a measure is stored in a
 * form that can be re-aggregated exactly (`part` says which): `sum`, `count`, `min`, `max` as they
 * are, `avg` as a `sum` and a `count` column, `count_distinct_approx` as the `distinct_values` list
 * (a sorted list of distinct values, merged by flattening and counting distinct: exact, never
 * larger than the source's distinct values per group), `count_distinct` as `distinct_count` (usable
 * only when the query groups by exactly the rollup's dimensions).
 */
/** `segment`: a boolean column, true for the rows in the segment. */
export type RollupColumnRole = 'dimension' | 'time' | 'segment' | 'measure-part';
export type MeasurePart = 'sum' | 'count' | 'min' | 'max' | 'distinct_values' | 'distinct_count';

export interface RollupColumn {
  /** Column name in the rollup rows (`cube__member`, `cube__member_day`, `cube__member__sum`); always quote it. */
  readonly name: string;
  /** DuckDB-facing type of the stored values. */
  readonly type: 'string' | 'number' | 'time' | 'boolean' | 'list';
  readonly role: RollupColumnRole;
  /** The model member (`cube.member`) the column holds. */
  readonly member: string;
  readonly part?: MeasurePart;
}

export interface RollupRefreshKey {
  /** `every` as written (`1 hour`, or a cron string), and in seconds when it is an interval. */
  readonly every?: string;
  readonly everySeconds?: number;
  /** True when the definition has `refresh_key.sql`: run refreshKeyPlan for its value. */
  readonly hasSql: boolean;
  readonly incremental: boolean;
  /** `update_window` as written, and in seconds. */
  readonly updateWindow?: string;
  readonly updateWindowSeconds?: number;
}

export interface RollupDefinition {
  /** `<cube>.<name>`. */
  readonly id: string;
  readonly cube: string;
  readonly name: string;
  readonly type: RollupType;
  /** Cube's table name for it, `<cube>_<name>` in lower case: the key of `usedPreAggregations`. */
  readonly tableName: string;
  /** `external: false`: the rollup is meant to live in the source warehouse. */
  readonly external: boolean;
  readonly columns: readonly RollupColumn[];
  readonly measures: readonly string[];
  readonly dimensions: readonly string[];
  readonly segments: readonly string[];
  readonly timeDimension?: string;
  readonly granularity?: Granularity;
  readonly partitionGranularity?: Granularity;
  readonly refreshKey: RollupRefreshKey;
  /** True when `build_range_start`/`build_range_end` are given; else the range is min/max of the time dimension. */
  readonly buildRange: { readonly start: boolean; readonly end: boolean };
  readonly indexes: ReadonlyArray<{ readonly name: string; readonly columns: readonly string[] }>;
  readonly allowNonStrictDateRangeMatch: boolean;
  /** `rollup_join`: the ids of the rollups it joins. */
  readonly rollups?: readonly string[];
}

export interface SqlPlan {
  readonly sql: string;
  readonly params: readonly unknown[];
}

export interface RollupBuildPlan extends SqlPlan {
  readonly columns: readonly RollupColumn[];
}

export interface RollupPartition {
  /** `<tableName><suffix>`, the suffix from the partition's start (`20240101`, `202401`, `2024`...); the bare table name when unpartitioned. */
  readonly name: string;
  readonly start: string;
  readonly end: string;
}

export interface RollupBuildOptions {
  /** Time zone the rollup's time buckets and partitions are computed in; `UTC` by default. */
  readonly timezone?: string;
}

/** A rollup the server has built and can read, offered to the planner. */
export interface AvailableRollup {
  readonly id: string;
  /** A DuckDB FROM expression over its rows, e.g. `read_parquet(['a.parquet', 'b.parquet'])`. */
  readonly from: string;
  /** The time range its built partitions cover; a query's date range must fall within it. */
  readonly covers?: { readonly start: string; readonly end: string };
  /** Versions of the partitions `from` reads (for the result cache's key and `usedPreAggregations`). */
  readonly versions: readonly string[];
  /** The time zone it was built in; `UTC` by default. */
  readonly timezone?: string;
  /** Shown as `targetTableName` in `usedPreAggregations`; defaults to the table name with the first version. */
  readonly targetTableName?: string;
  /** When its newest partition was built, in milliseconds since the epoch. */
  readonly lastUpdatedAt?: number;
  /**
   * `external: false`: `from` names a table in the source warehouse, and the plan is the source's SQL
   * (a rollup with a `count_distinct_approx` measure can then answer only on DuckDB).
   */
  readonly inWarehouse?: boolean;
}

/** Cube's default schema of pre-aggregation tables, the prefix of `usedPreAggregations` keys. */
export const PRE_AGGREGATIONS_SCHEMA = 'prod_pre_aggregations';

/** One entry of Cube's `usedPreAggregations`, keyed by `prod_pre_aggregations.<table name>`. */
export interface UsedPreAggregation {
  readonly targetTableName: string;
  /** Spelled as Cube's client spells it. */
  readonly type: 'rollup' | 'rollupJoin' | 'originalSql';
  readonly refreshKeyValues: readonly unknown[];
  /** Milliseconds since the epoch, as Cube reports it. */
  readonly lastUpdatedAt?: number;
}

/** Which rollup answered a plan. */
export interface RollupUse {
  readonly id: string;
  /** The plan is the source warehouse's SQL over a rollup kept there; else DuckDB SQL for the rollup store. */
  readonly inWarehouse?: boolean;
  readonly tableName: string;
  readonly versions: readonly string[];
}
