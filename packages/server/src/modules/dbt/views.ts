import type { Static } from '@sinclair/typebox';
import { toIso } from '../../http/common-schemas.js';
import type { DbtIntegrationRow, DbtSyncRow, DbtSyncStageRecord, JobRow } from '../../store/schema.js';
import type { BuildService } from '../builds/service.js';
import type { DbtIntegration, DbtSyncResult, DbtSyncStatus } from './schemas.js';
import { endStages, withStage, type StageName } from './stages.js';

export type SyncStatusView = Static<typeof DbtSyncStatus>;
type BuildView = NonNullable<Awaited<ReturnType<BuildService['byId']>>>;

export function integrationView(row: DbtIntegrationRow): Static<typeof DbtIntegration> {
  return {
    deploymentId: row.deployment_id,
    repository: row.repository,
    installationId: row.installation_id === null ? null : Number(row.installation_id),
    folder: row.folder,
    branch: row.branch,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** A build's compiler errors as one line each, `file:line:column: message`, for a sync's error. */
export function buildErrorText(build: BuildView): string {
  const lines = build.errors.map((e) => `${e.fileName}${e.line ? `:${e.line}${e.column ? `:${e.column}` : ''}` : ''}: ${e.message}`);
  return `Build ${build.buildId} of ${build.branchName} failed: ${lines.join('\n') || 'no error was reported'}`;
}

/**
 * The status of a sync from its row, its job and, once written, the generated branch's build: the
 * job ends when that build is queued, and COMPLETED or FAILED is the build's outcome (the sync
 * never waits on the build). A job that died (its process gone) or was cancelled before the
 * handler could say so reads FAILED or CANCELLED, so nothing stays RUNNING forever.
 */
export function syncView(
  row: DbtSyncRow,
  job: Pick<JobRow, 'state' | 'last_error'> | undefined,
  build: BuildView | undefined,
): SyncStatusView {
  let status: SyncStatusView['status'];
  let stages = row.stages;
  let error = row.error;
  let finishedAt = row.finished_at ? toIso(row.finished_at) : null;
  let stage = (row.stage as StageName | null) ?? null;
  const ended = (job && job.state !== 'queued' && job.state !== 'running') || false;
  switch (row.state) {
    case 'queued':
    case 'running':
      status = row.state === 'queued' ? 'QUEUED' : 'RUNNING';
      if (ended && job!.state === 'cancelled') {
        status = 'CANCELLED';
        stages = endStages(stages, 'cancelled', 'Cancelled', new Date().toISOString());
      } else if (ended && job!.state !== 'succeeded') {
        status = 'FAILED';
        error = `The sync did not finish: ${(job!.last_error ?? 'its job stopped').split('\n')[0]}`;
        stages = endStages(stages, 'failed', error, new Date().toISOString());
      }
      break;
    case 'written':
      ({ status, stages, error, finishedAt } = fromBuild(row, build));
      stage = 'build';
      break;
    case 'failed':
      status = 'FAILED';
      break;
    case 'cancelled':
      status = 'CANCELLED';
      break;
  }
  return {
    syncJobId: row.id,
    deploymentId: row.deployment_id,
    ref: row.ref,
    commitSha: row.commit_sha,
    status,
    stage,
    stages: stages as SyncStatusView['stages'],
    branchName: row.branch_name,
    buildId: row.build_id === null ? null : Number(row.build_id),
    error,
    files: row.files,
    createdAt: toIso(row.created_at),
    finishedAt,
  };
}

function fromBuild(row: DbtSyncRow, build: BuildView | undefined) {
  const stages = (change: Partial<DbtSyncStageRecord>) => withStage(row.stages, 'build', change);
  if (!build) {
    const error = `Build ${row.build_id} of ${row.branch_name} no longer exists`;
    return { status: 'FAILED' as const, stages: stages({ status: 'failed', message: error }), error, finishedAt: null };
  }
  const times = { startedAt: build.startedAt ?? build.createdAt, finishedAt: build.finishedAt };
  switch (build.status) {
    case 'built':
      return {
        status: 'COMPLETED' as const,
        stages: stages({ ...times, status: 'done', message: `Build ${build.buildId}: built, ${build.cubesCount ?? 0} cubes` }),
        error: null,
        finishedAt: build.finishedAt,
      };
    case 'failed': {
      const error = buildErrorText(build);
      return {
        status: 'FAILED' as const,
        stages: stages({ ...times, status: 'failed', message: error }),
        error,
        finishedAt: build.finishedAt,
      };
    }
    case 'cancelled': {
      const error = `Build ${build.buildId} of ${build.branchName} was cancelled`;
      return {
        status: 'CANCELLED' as const,
        stages: stages({ ...times, status: 'cancelled', message: error }),
        error,
        finishedAt: build.finishedAt,
      };
    }
    default:
      return {
        status: 'RUNNING' as const,
        stages: stages({ ...times, status: 'running', message: `Build ${build.buildId} of ${build.branchName}` }),
        error: null,
        finishedAt: null,
      };
  }
}

export function resultView(view: SyncStatusView): Static<typeof DbtSyncResult> {
  return {
    syncJobId: view.syncJobId,
    status: view.status as 'COMPLETED' | 'FAILED' | 'CANCELLED',
    branchName: view.branchName,
    buildId: view.buildId,
    error: view.error,
    files: view.files,
  };
}
