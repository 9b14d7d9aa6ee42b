import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.js';

export const LOG_SOURCES = ['production', 'dev'] as const;
export const DEFAULT_LOG_LIMIT = 200;
export const MAX_LOG_LIMIT = 1000;

export const DeploymentLogLine = Type.Object(
  {
    id: Type.Integer({ description: 'Increases with every line written; pass it as `since` to resume after this line.' }),
    at: Timestamp,
    source: StringEnum(LOG_SOURCES, { description: 'production: builds of shared branches; dev: builds of dev-mode branches.' }),
    pod: Type.String({ description: 'The server process that wrote the line.' }),
    container: Type.String({ description: 'The part that wrote it: `builder` for builds.' }),
    level: StringEnum(['info', 'warn', 'error'] as const),
    buildId: Type.Union([Type.Integer(), Type.Null()]),
    message: Type.String(),
  },
  { $id: 'DeploymentLogLine' },
);
export type DeploymentLogLine = Static<typeof DeploymentLogLine>;

export const DeploymentLogList = Type.Object(
  { items: Type.Array(Type.Ref(DeploymentLogLine), { description: 'Oldest first.' }) },
  { $id: 'DeploymentLogList' },
);

// Unknown parameters are refused rather than ignored: a misspelt filter must not widen the answer.
export const DeploymentLogQuery = Type.Object(
  {
    source: Type.Optional(StringEnum(LOG_SOURCES, { description: 'Only production (shared branches) or dev (dev-mode branches) lines.' })),
    pod: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only lines of this pod.' })),
    container: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only lines of this container.' })),
    since: Type.Optional(
      Type.Integer({
        minimum: 0,
        // Bounded like every integer parameter of the API (int4), far beyond a deployment's lines.
        maximum: 2_147_483_647,
        description:
          'A log line id (a cursor, not a time): only the lines written after it, the oldest `limit` of them. ' +
          'Without it, the newest `limit` lines.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_LOG_LIMIT,
        description: `Lines at most (default ${DEFAULT_LOG_LIMIT}); with follow, of the backlog.`,
      }),
    ),
    follow: Type.Optional(
      Type.Boolean({
        description:
          'Stream: answer application/x-ndjson, one line object per line, first the lines a list would give, then each new ' +
          'line as it is written, until the client disconnects. An empty line every 15 s keeps the connection alive.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DeploymentLogQuery = Static<typeof DeploymentLogQuery>;

export const deploymentLogSchemas = [DeploymentLogLine, DeploymentLogList];
