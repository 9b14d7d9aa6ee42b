import { Type, type Static } from '@sinclair/typebox';
import { defineJob } from '../../jobs/define.js';
import type { JobContext } from '../../jobs/kind.js';
import type { Job } from '../../store/jobs.js';
import type { Executor } from '../../store/executor.js';
import type { ModelBuildRow } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import { logSource } from './views.js';
import { counted } from '../../lib/counted.js';

/** The job kind that runs builds; one per build, its payload names the build. */
export const BUILD_JOB = 'data-model.build';
/** A build is compiled at most this many times: a process that keeps dying on it must not loop forever. */
export const BUILD_MAX_ATTEMPTS = 3;
const BuildJobPayload = Type.Object({ buildId: Type.Integer({ minimum: 1 }) });
export type BuildJobPayload = Static<typeof BuildJobPayload>;

/** How long a build's claim holds without a heartbeat; the handler beats between its steps. */
export const BUILD_LEASE_MS = 60_000;

/**
 * Compiles one queued build. Any server process may run it; the claim on the job and the
 * compare-and-swap on the build's status mean no build runs twice at once, and a build that was
 * cancelled or superseded before its turn is left alone. A process that dies mid-build leaves
 * the job's lease to expire: another process claims it again, or it goes dead after
 * BUILD_MAX_ATTEMPTS and the build reads as failed.
 */
export const buildJob = defineJob({
  kind: BUILD_JOB,
  queue: 'builds',
  payload: BuildJobPayload,
  maxAttempts: BUILD_MAX_ATTEMPTS,
  leaseMs: BUILD_LEASE_MS,
  handler: runBuild,
});

async function runBuild(job: Job<BuildJobPayload>, context: JobContext): Promise<unknown> {
  const db = context.store.db;
  const build = await db
    .updateTable('model_build')
    .set({ status: 'building', started_at: new Date(context.now()) })
    .where('id', '=', job.payload.buildId)
    .where('status', 'in', ['queued', 'building'])
    .returningAll()
    .executeTakeFirst();
  if (!build) return { skipped: 'the build was cancelled or had already finished' };
  const log = (level: 'info' | 'error', message: string) =>
    context.services.deploymentLogs.append({
      accountId: build.account_id,
      deploymentId: build.deployment_id,
      buildId: Number(build.id),
      source: logSource(build.branch_name),
      pod: context.workerId,
      container: 'builder',
      level,
      message,
    });
  const id = Number(build.id);
  try {
    const files = await context.services.dataModel.filesAt(build.account_id, Number(build.commit_id));
    await log('info', `Build ${id} of ${build.branch_name} at commit ${build.commit_id}: compiling ${counted(files.size, 'file')}`);
    await context.heartbeat();
    const summary = await context.services.builds.compileFiles(files);
    await context.heartbeat();
    const gate = summary.valid ? await prepareServing(context, build, log) : undefined;
    const finished = await finish(context, build, summary.valid ? 'built' : 'failed', summary.errors, summary.cubesCount, gate);
    if (!finished) return { skipped: 'the build was cancelled while it compiled' };
    if (summary.valid) await log('info', `Build ${id}: built, ${counted(summary.cubesCount, 'cube')}`);
    else {
      await log('error', `Build ${id}: failed, ${counted(summary.errors.length, 'error')}`);
      for (const e of summary.errors)
        await log('error', `${e.fileName}${e.line ? `:${e.line}${e.column ? `:${e.column}` : ''}` : ''}: ${e.message}`);
    }
    return { status: summary.valid ? 'built' : 'failed', cubesCount: summary.cubesCount };
  } catch (error) {
    if (context.signal.aborted && (context.signal.reason as { reason?: string } | undefined)?.reason === 'cancelled') {
      await finish(context, build, 'cancelled', [], null);
      await log('info', `Build ${id}: cancelled`);
    } else {
      const message = error instanceof Error ? error.message : String(error);
      await log('error', `Build ${id}: attempt ${job.attempt} of ${job.maxAttempts} stopped: ${message}`).catch(() => {});
    }
    throw error;
  }
}

/** Records the outcome, unless the build was cancelled meanwhile (it stays cancelled). */
async function finish(
  context: JobContext,
  build: ModelBuildRow,
  status: 'built' | 'failed' | 'cancelled',
  errors: readonly unknown[],
  cubesCount: number | null,
  gate?: (db: Executor) => Promise<void>,
): Promise<boolean> {
  return transaction(context.store.db, async (db) => {
    const row = await db
      .updateTable('model_build')
      .set({ status, errors: JSON.stringify(errors), cubes_count: cubesCount, finished_at: new Date(context.now()) })
      .where('id', '=', build.id)
      .where('status', '=', 'building')
      .returning('id')
      .executeTakeFirst();
    if (row && gate) await gate(db);
    return row !== undefined;
  });
}

/**
 * What the build waits for before it serves (its pre-aggregations), queued with the status change.
 * A gate that fails is logged and the build serves without it: the data API answers from the warehouse.
 */
async function prepareServing(
  context: JobContext,
  build: ModelBuildRow,
  log: (level: 'info' | 'error', message: string) => Promise<unknown>,
): Promise<((db: Executor) => Promise<void>) | undefined> {
  try {
    return await context.services.preAggregations.prepareBuild({
      accountId: build.account_id,
      deploymentId: build.deployment_id,
      buildId: Number(build.id),
      commitId: Number(build.commit_id),
      branchName: build.branch_name,
    });
  } catch (error) {
    await log('error', `Build ${build.id}: pre-aggregations not scheduled: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
