import { Type } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { InstallationId } from '../github/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const DbtIntegration = Type.Object(
  {
    deploymentId: Type.Integer(),
    repository: Type.String({
      description:
        'The Git repository holding the dbt project: `owner/repo` of the installation, else any URL git understands (an https URL without its user and password, which are kept sealed and never shown), or a local path.',
    }),
    installationId: Nullable(Type.Integer({ description: 'The GitHub App installation whose token clones the repository; null without.' })),
    folder: Type.String({ description: "The dbt project's folder in the repository; empty for its root." }),
    branch: Type.String({ description: 'The branch a sync takes when it names no ref.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'DbtIntegration' },
);

export const ConnectDbtBody = Type.Object(
  {
    repository: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        '`owner/repo` of the installation with installationId; without it, a Git URL (https, ssh, file) or a local path. ' +
        "An https URL may carry a user and password or a token (`https://user:token@host/…`, `https://token@host/…`): they are stored sealed, sent to git as a header and never shown; the integration keeps the URL without them. Any other URL may carry no password: over ssh, the server's key authenticates.",
    }),
    installationId: Type.Optional(InstallationId),
    folder: Type.Optional(Type.String({ maxLength: 500, description: "The dbt project's folder in the repository (default: its root)." })),
    branch: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 250,
        description: "The default branch of syncs (default: the repository's HEAD, else main).",
      }),
    ),
  },
  { additionalProperties: false, $id: 'ConnectDbtInput' },
);

export const StartDbtSyncBody = Type.Object(
  {
    ref: Type.Optional(
      Type.String({
        maxLength: 250,
        description: "A branch or tag of the repository (default: the integration's branch); a commit SHA or an empty value is refused.",
      }),
    ),
  },
  { additionalProperties: false, $id: 'StartDbtSyncInput' },
);

const SyncStatusEnum = StringEnum(['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const, {
  description: "COMPLETED once the generated branch is built; FAILED (with the error, the compiler's for a failed build) otherwise.",
});
const StageNameEnum = StringEnum(['clone', 'parse', 'generate', 'write', 'build'] as const);

export const DbtSyncStarted = Type.Object(
  { syncJobId: Type.Integer(), status: SyncStatusEnum, ref: Type.String() },
  { $id: 'DbtSyncStarted' },
);

export const DbtSyncStage = Type.Object(
  {
    name: StageNameEnum,
    status: StringEnum(['pending', 'running', 'done', 'failed', 'skipped', 'cancelled'] as const),
    startedAt: Nullable(Timestamp),
    finishedAt: Nullable(Timestamp),
    message: Nullable(Type.String()),
    progress: Nullable(Type.Object({ done: Type.Integer(), total: Type.Integer() })),
  },
  { $id: 'DbtSyncStage' },
);

const GeneratedFile = Type.Object({
  path: Type.String({ description: 'The generated file on the branch, under model/dbt/.' }),
  cube: Type.String(),
});

export const DbtSyncStatus = Type.Object(
  {
    syncJobId: Type.Integer(),
    deploymentId: Type.Integer(),
    ref: Type.String(),
    commitSha: Nullable(Type.String({ description: 'The commit the ref pointed at when cloned.' })),
    status: SyncStatusEnum,
    stage: Nullable(StageNameEnum),
    stages: Type.Array(Type.Ref(DbtSyncStage)),
    branchName: Nullable(Type.String({ description: 'The generated branch, dbt-<ref>-<UTC YYYYMMDDHHmmss>-<sha7>.' })),
    buildId: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    files: Type.Array(GeneratedFile, { description: 'The generated files, once generated.' }),
    createdAt: Timestamp,
    finishedAt: Nullable(Timestamp),
  },
  { $id: 'DbtSyncStatus' },
);

export const DbtSyncResult = Type.Object(
  {
    syncJobId: Type.Integer(),
    status: StringEnum(['COMPLETED', 'FAILED', 'CANCELLED'] as const),
    branchName: Nullable(Type.String()),
    buildId: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    files: Type.Array(GeneratedFile),
  },
  { $id: 'DbtSyncResult' },
);

export const SyncParams = Type.Object({ deploymentId: IntegerId, syncJobId: IntegerId });

export const dbtSchemas = [DbtIntegration, ConnectDbtBody, StartDbtSyncBody, DbtSyncStarted, DbtSyncStage, DbtSyncStatus, DbtSyncResult];
