import type { CompileError } from '@plinth/semantic';
import { toIso } from '../../http/common-schemas.js';
import type { Executor } from '../../store/executor.js';
import { DEV_BRANCH_PREFIX } from '../data-model/public.js';
import type { JobState, ModelBranchRow, ModelBuildRow } from '../../store/schema.js';

/** What the API reports; the stored `queued` never leaves the server (it reads `building`). */
export type ReportedStatus = 'building' | 'built' | 'failed' | 'cancelled' | 'dev_mode';

export interface BuildView {
  deploymentId: number;
  branchName: string;
  status: ReportedStatus;
  buildId: number | null;
  commitId: number;
  errors: CompileError[];
  cubesCount: number | null;
  trigger: string | null;
  createdAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

/** A build row with the state of its job, which decides what an unfinished build reads as. */
export type BuildWithJob = ModelBuildRow & { job_state: JobState | null; job_error: string | null };

/** Every build query selects the build and its job's state and last error. */
export function selectBuilds(db: Executor) {
  return db
    .selectFrom('model_build as b')
    .leftJoin('job as j', 'j.id', 'b.job_id')
    .selectAll('b')
    .select(['j.state as job_state', 'j.last_error as job_error']);
}

/**
 * Nothing stays `building` forever: an unfinished build whose job is dead (out of attempts, its
 * process gone) reads as failed with the job's error, and one whose job was cancelled as cancelled.
 */
export function toView(row: BuildWithJob): BuildView {
  let status: ReportedStatus = row.status === 'queued' ? 'building' : row.status;
  let errors = (row.errors ?? []) as CompileError[];
  if (status === 'building' && row.job_state === 'dead') {
    status = 'failed';
    // The runner keeps a stack; its first line is the message.
    errors = [{ fileName: '', message: `The build did not finish: ${(row.job_error ?? 'its job is dead').split('\n')[0]}` }];
  } else if (status === 'building' && row.job_state === 'cancelled') {
    status = 'cancelled';
  }
  return {
    deploymentId: row.deployment_id,
    branchName: row.branch_name,
    status,
    buildId: Number(row.id),
    commitId: Number(row.commit_id),
    errors,
    cubesCount: row.cubes_count,
    trigger: row.trigger,
    createdAt: toIso(row.created_at),
    startedAt: row.started_at ? toIso(row.started_at) : null,
    finishedAt: row.finished_at ? toIso(row.finished_at) : null,
  };
}

/** A dev-mode branch whose head has no build yet (section 3). */
export function devModeView(branch: ModelBranchRow): BuildView {
  return {
    deploymentId: branch.deployment_id,
    branchName: branch.name,
    status: 'dev_mode',
    buildId: null,
    commitId: Number(branch.head_commit_id),
    errors: [],
    cubesCount: null,
    trigger: null,
    createdAt: null,
    startedAt: null,
    finishedAt: null,
  };
}

/** Builds of dev branches log as `dev`, of shared branches as `production` (the logs' `source`). */
export function logSource(branchName: string): 'dev' | 'production' {
  return branchName.startsWith(DEV_BRANCH_PREFIX) ? 'dev' : 'production';
}
