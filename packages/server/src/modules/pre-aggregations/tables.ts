import type { ColumnType, Generated, Selectable } from 'kysely';

/** The tables of pre-aggregations (migrations 0039 and 0051), merged into the store's `Database`. */
declare module '../../store/schema.js' {
  interface Database {
    rollup_partition: RollupPartitionTable;
    rollup_retired_file: RollupRetiredFileTable;
    rollup_retired_table: RollupRetiredTableTable;
    rollup_build: RollupBuildTable;
    rollup_schedule: RollupScheduleTable;
  }

  type RollupTime = ColumnType<Date, Date | string, Date | string>;
  type RollupMaybeTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** bigint, read as a number (as the store reads every bigint). */
  type RollupCount = ColumnType<number | null, number | null | undefined, number | null>;

  export interface RollupPartitionTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    build_id: number;
    /** `<cube>.<name>`. */
    rollup_id: string;
    /** The engine's partition name (the table name, suffixed by the partition's start when partitioned). */
    name: string;
    /** Wall-clock ISO bounds of the partition, half-open; null when unpartitioned. */
    range_start: string | null;
    range_end: string | null;
    /** The current version (null until built once): a new one per rebuild, so a cached answer never outlives it. */
    version: string | null;
    /** The refresh key's value the version was built under. */
    refresh_key: string | null;
    /** The version's Parquet file, relative to the data directory; null for one kept in the source warehouse. */
    file: string | null;
    /** `external: false`: the version's table in the source warehouse, `<schema>.<table>`. */
    warehouse_table: ColumnType<string | null, string | null | undefined, string | null>;
    row_count: RollupCount;
    bytes: RollupCount;
    built_at: RollupMaybeTime;
    build_ms: number | null;
    /** Why the last attempt failed; cleared by the next success. */
    last_error: string | null;
    error_at: RollupMaybeTime;
  }

  export interface RollupRetiredFileTable {
    id: Generated<number>;
    file: string;
    retired_at: RollupTime;
  }

  /** A replaced version's table in a deployment's source warehouse, dropped after the grace period. */
  export interface RollupRetiredTableTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    warehouse_table: string;
    retired_at: RollupTime;
  }

  /** `building` holds a build back from serving; `ready` and `failed` do not (a failed one is answered by the warehouse). */
  export type RollupBuildState = 'building' | 'ready' | 'failed';

  export interface RollupBuildTable {
    build_id: number;
    account_id: number;
    deployment_id: number;
    branch_name: string;
    state: RollupBuildState;
    rollups: number;
    error: string | null;
    updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  }

  export interface RollupScheduleTable {
    build_id: number;
    rollup_id: string;
    account_id: number;
    deployment_id: number;
    next_check_at: RollupTime;
    /** How often its refresh key is looked at: `every`, or the throttle of a `refresh_key.sql`. */
    check_ms: number;
    last_checked_at: RollupMaybeTime;
    /** The process refreshing the rollup now, until its claim lapses: one refresh at a time across processes. */
    claimed_by: ColumnType<string | null, string | null | undefined, string | null>;
    claimed_until: RollupMaybeTime;
    /** The last refresh that left every partition built. */
    refreshed_at: RollupMaybeTime;
    /** Why the last refresh failed as a whole (its range, its refresh key, the warehouse), or its first failed partition. */
    last_error: string | null;
  }

  export type RollupPartitionRow = Selectable<RollupPartitionTable>;
  export type RollupBuildRow = Selectable<RollupBuildTable>;
}
