import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const PreAggregationPartition = Type.Object(
  {
    name: Type.String({ description: "Cube's table name of the partition: the rollup's, suffixed by its start when partitioned." }),
    rangeStart: Nullable(Type.String({ description: 'Wall-clock start (included); null when unpartitioned.' })),
    rangeEnd: Nullable(Type.String({ description: 'Wall-clock end (excluded).' })),
    version: Nullable(Type.String({ description: 'The version queries read; null until built once.' })),
    refreshKey: Nullable(Type.String({ description: 'The refresh key value it was built under.' })),
    table: Nullable(
      Type.String({ description: 'Kept in the source warehouse: the current version’s table, `prod_pre_aggregations.<name>`; else null.' }),
    ),
    rows: Nullable(Type.Integer()),
    bytes: Nullable(Type.Integer({ description: 'Null when unknown: a DuckDB warehouse tells no table’s size.' })),
    builtAt: Nullable(Timestamp),
    buildTimeMs: Nullable(Type.Integer()),
    lastError: Nullable(Type.String({ description: 'Why the last build of it failed; null after one that worked.' })),
    errorAt: Nullable(Timestamp),
  },
  { $id: 'PreAggregationPartition' },
);

export const PreAggregation = Type.Object(
  {
    id: Type.String({ description: '`<cube>.<name>`.' }),
    cube: Type.String(),
    name: Type.String(),
    tableName: Type.String({ description: "Cube's table name, the key of `usedPreAggregations` in a load's answer." }),
    type: StringEnum(['rollup', 'original_sql', 'rollup_join'] as const),
    external: Type.Boolean(),
    storedIn: StringEnum(['rollupStore', 'warehouse'] as const, {
      description: "rollupStore: Parquet files of Plinth's rollup store; warehouse (`external: false`): tables of the source warehouse.",
    }),
    partitionGranularity: Nullable(Type.String()),
    refreshKey: Type.Object({
      every: Nullable(Type.String()),
      sql: Type.Boolean({ description: 'Whether `refresh_key.sql` decides staleness.' }),
      incremental: Type.Boolean(),
      updateWindow: Nullable(Type.String()),
    }),
    partitionCount: Type.Integer(),
    builtPartitions: Type.Integer(),
    rows: Type.Integer(),
    bytes: Type.Integer(),
    lastRefreshAt: Nullable(Timestamp),
    buildTimeMs: Type.Integer({ description: 'Sum of its partitions’ last build times.' }),
    nextCheckAt: Nullable(Timestamp),
    lastError: Nullable(Type.String({ description: 'Why its last refresh failed; null after one that worked.' })),
    partitions: Type.Array(Type.Ref(PreAggregationPartition)),
  },
  { $id: 'PreAggregation' },
);

export const PreAggregationList = Type.Object(
  {
    buildId: Nullable(Type.Integer({ description: 'The build whose pre-aggregations these are: the newest built one of the branch.' })),
    state: Nullable(
      StringEnum(['building', 'ready', 'failed'] as const, {
        description:
          'building: the build waits for them before it serves (the previous build serves meanwhile); failed: it serves, answering from the warehouse where a rollup is missing.',
      }),
    ),
    error: Nullable(Type.String()),
    items: Type.Array(Type.Ref(PreAggregation)),
  },
  { $id: 'PreAggregationList' },
);

export const PreAggregationsQuery = Type.Object(
  {
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A shared branch; the deploy branch when left out.' })),
  },
  { additionalProperties: false },
);

export const BuildPreAggregationsInput = Type.Object(
  {
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    preAggregations: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 400 }), {
        maxItems: 100,
        description: 'Ids (`<cube>.<name>`) to build; every one when left out.',
      }),
    ),
    partitions: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 400 }), {
        maxItems: 1000,
        description: 'Only these partitions (by name); every one when left out.',
      }),
    ),
  },
  { $id: 'BuildPreAggregationsInput', additionalProperties: false },
);
export type BuildPreAggregationsInput = Static<typeof BuildPreAggregationsInput>;

export const PreAggregationJob = Type.Object(
  {
    id: Type.Integer(),
    preAggregation: Type.String(),
    buildId: Type.Integer(),
    partitions: Nullable(
      Type.Array(Type.String(), { description: 'Partitions asked for; null: whichever are stale (every one for a build).' }),
    ),
    state: StringEnum(['queued', 'running', 'succeeded', 'dead', 'cancelled'] as const, {
      description: 'A failed attempt waiting for its retry is queued; dead: out of attempts.',
    }),
    attempts: Type.Integer(),
    lastError: Nullable(Type.String()),
    createdAt: Timestamp,
    finishedAt: Nullable(Timestamp),
  },
  { $id: 'PreAggregationJob' },
);

export const PreAggregationJobList = Type.Object(
  { items: Type.Array(Type.Ref(PreAggregationJob), { description: 'Newest first, at most 100.' }) },
  { $id: 'PreAggregationJobList' },
);

export const PreAggregationParams = Type.Object({
  deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  preAggregationId: Type.String({ minLength: 1, maxLength: 400 }),
});

export const PreviewQuery = Type.Object(
  {
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Rows to show; 100 when left out.' })),
  },
  { additionalProperties: false },
);

export const PreAggregationPreview = Type.Object(
  {
    preAggregation: Type.String(),
    columns: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), member: Type.String() })),
    data: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'Rows as stored, before any access policy.' }),
  },
  { $id: 'PreAggregationPreview' },
);

export const preAggregationSchemas = [
  PreAggregationPartition,
  PreAggregation,
  PreAggregationList,
  BuildPreAggregationsInput,
  PreAggregationJob,
  PreAggregationJobList,
  PreAggregationPreview,
];
