export { compile, type CompileOptions, type CompileResult } from './compiler/compile.js';
export type { CompileError } from './compiler/diagnostics.js';
export type * from './model.js';
export { QueryError, QueryTimeoutError, WarehouseUnavailableError } from './errors.js';
export { planQuery, type PlanOptions, type QueryPlan, type ResultColumn } from './planner/plan.js';
export type { Query, NormalizedQuery, Filter, TimeDimension, Granularity, Operator } from './planner/query.js';
export type { Annotation, MemberAnnotation } from './planner/annotation.js';
export type { Dialect, ParamType } from './dialects/dialect.js';
export { duckdbDialect } from './dialects/duckdb.js';
export { postgresDialect } from './dialects/postgres.js';
export type { Warehouse, QueryOptions, QueryResult, StreamOptions } from './drivers/warehouse.js';
export { DuckDBWarehouse, type DuckDBOptions } from './drivers/duckdb.js';
export { PostgresWarehouse, WarehouseUnreachableError, DEFAULT_CONNECT_TIMEOUT_MS, type PostgresOptions } from './drivers/postgres.js';
export { openWarehouse } from './drivers/open.js';
export {
  load,
  loadRequest,
  planFannedOut,
  type CompactData,
  type DataRows,
  type LoadOptions,
  type LoadRequestOptions,
  type LoadResponse,
  type MultiLoadResponse,
} from './load.js';
export { streamLoad, type StreamedLoad, type StreamLoadOptions } from './stream.js';
export { fanOut, pivotQueryOf, type FannedOut, type PivotQuery, type QueryType } from './planner/fan-out.js';
export { meta, type MetaCube, type MetaMember } from './meta.js';
export { writeSample, sampleModelFiles, type SampleOptions } from './sample/sample.js';
export { translateSql, type SqlTranslation } from './sql/translate.js';
export {
  answerSql,
  describeSql,
  type SqlAnswer,
  type SqlColumn,
  type SqlDescription,
  type SqlLoadResult,
  type SqlModel,
  type SqlOptions,
} from './sql/answer.js';
export { pgText, pgTypeOf, PG_TYPES, type PgType } from './sql/types.js';
export { SqlTranslationError, sqlStates, type SqlErrorCondition, type SqlState } from './sql/errors.js';
export { cubesqlLines, CHUNK_ROWS as CUBESQL_CHUNK_ROWS } from './sql/response.js';
export {
  rollupDefinitions,
  rollupBuildPlan,
  rollupRangePlan,
  refreshKeyPlan,
  rollupPartitions,
  PRE_AGGREGATIONS_SCHEMA,
  type RollupDefinition,
  type RollupColumn,
  type RollupColumnRole,
  type MeasurePart,
  type RollupRefreshKey,
  type RollupType,
  type RollupBuildPlan,
  type RollupBuildOptions,
  type RollupPartition,
  type SqlPlan,
  type AvailableRollup,
  type UsedPreAggregation,
  type RollupUse,
} from './rollups/index.js';
