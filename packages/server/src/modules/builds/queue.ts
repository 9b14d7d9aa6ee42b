import type { Executor } from '../../store/executor.js';
import { transaction } from '../../store/transaction.js';
import { buildJob } from './job.js';
import type { QueueBuildInput } from './public.js';

/**
 * Records a queued build and its job in one transaction (the caller's when one is open, so a commit
 * and the build of it exist together or not at all). Builds of the same branch still queued are
 * cancelled with their jobs: only the newest head is worth compiling.
 */
export function queueBuild(db: Executor, input: QueueBuildInput): Promise<{ buildId: number }> {
  return transaction(db, async (trx) => {
    const superseded = await trx
      .updateTable('model_build')
      .set({ status: 'cancelled', finished_at: new Date() })
      .where('deployment_id', '=', input.deploymentId)
      .where('branch_name', '=', input.branchName)
      .where('status', '=', 'queued')
      .returning('job_id')
      .execute();
    for (const { job_id } of superseded) if (job_id !== null) await buildJob.cancel(trx, Number(job_id));
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
    const job = await buildJob.enqueue(trx, { buildId }, { accountId: input.accountId });
    await trx.updateTable('model_build').set({ job_id: job.id }).where('id', '=', buildId).execute();
    return { buildId };
  });
}
