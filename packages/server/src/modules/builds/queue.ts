import type { Executor } from '../../store/executor.js';
import { JobQueue } from '../../store/jobs.js';
import { transaction } from '../../store/transaction.js';
import type { QueueBuildInput } from './public.js';

/** The job kind that runs builds; one per build, its payload names the build. */
export const BUILD_JOB = 'data-model.build';
/** A build is compiled at most this many times: a process that keeps dying on it must not loop forever. */
export const BUILD_MAX_ATTEMPTS = 3;

export interface BuildJobPayload {
  buildId: number;
}

/**
 * Records a queued build and its job in one transaction (the caller's when one is open, so a commit
 * and the build of it exist together or not at all). Builds of the same branch still queued are
 * cancelled with their jobs: only the newest head is worth compiling.
 */
export function queueBuild(db: Executor, input: QueueBuildInput): Promise<{ buildId: number }> {
  return transaction(db, async (trx) => {
    const jobs = new JobQueue(trx);
    const superseded = await trx
      .updateTable('model_build')
      .set({ status: 'cancelled', finished_at: new Date() })
      .where('deployment_id', '=', input.deploymentId)
      .where('branch_name', '=', input.branchName)
      .where('status', '=', 'queued')
      .returning('job_id')
      .execute();
    for (const { job_id } of superseded) if (job_id !== null) await jobs.cancel(Number(job_id));
    const build = await trx
      .insertInto('model_build')
      .values({
        account_id: input.accountId,
        deployment_id: input.deploymentId,
        branch_name: input.branchName,
        commit_id: input.commitId,
        trigger: input.trigger,
        job_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const buildId = Number(build.id);
    const payload: BuildJobPayload = { buildId };
    const job = await jobs.enqueue({ kind: BUILD_JOB, payload, accountId: input.accountId, maxAttempts: BUILD_MAX_ATTEMPTS });
    await trx.updateTable('model_build').set({ job_id: job.id }).where('id', '=', buildId).execute();
    return { buildId };
  });
}
