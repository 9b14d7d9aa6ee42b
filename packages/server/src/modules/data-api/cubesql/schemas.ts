import { Type, type Static } from '@sinclair/typebox';

/** Cube's cache modes (the engine's list is internal to it). */
const CACHE_MODES = ['stale-if-slow', 'stale-while-revalidate', 'must-revalidate', 'no-cache'] as const;

/** `POST /v1/cubesql`: the SQL, and the time zone and cache mode of Cube's SQL API over HTTP. */
export const CubesqlBody = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: 100_000,
      description: "The SQL query: one SELECT over the model's cubes and views (joins, CTEs, UNION and expressions over results included).",
    }),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A TZ database name, e.g. America/Los_Angeles.' })),
    cache: Type.Optional(
      Type.Union(
        CACHE_MODES.map((mode) => Type.Literal(mode)),
        { description: "Cube's cache mode." },
      ),
    ),
  },
  { additionalProperties: false },
);
export type CubesqlBody = Static<typeof CubesqlBody>;

/**
 * One line of the newline-delimited JSON answer: the first carries `schema` (and `lastRefreshTime`),
 * each further one a `data` chunk of rows in column order.
 */
export const CubesqlLine = Type.Object(
  {
    schema: Type.Optional(Type.Array(Type.Object({ name: Type.String(), column_type: Type.String() }))),
    lastRefreshTime: Type.Optional(Type.String({ format: 'date-time' })),
    data: Type.Optional(Type.Array(Type.Array(Type.Unknown()))),
  },
  { description: 'Newline-delimited JSON: a schema line, then data lines.' },
);
