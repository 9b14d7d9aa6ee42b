import type { JobContext } from '../../jobs/kind.js';
import { JobAbort } from '../../jobs/runner.js';
import type { Job } from '../../store/jobs.js';
import type { TestServer } from '../../test-support/server.js';
import { dbtSyncJob } from './job.js';
import { DBT_SYNC_LEASE_MS, type DbtSyncPayload } from './kind.js';

/**
 * Runs one sync's job by hand, as the runner would but with a heartbeat the test controls: it is
 * called at the start of each stage (with the stage about to start, read from the row) and may
 * cancel the sync there. Other queued dbt syncs claimed on the way are given back untouched.
 */
export async function runSyncJob(
  server: TestServer,
  syncJobId: number,
  onHeartbeat: (beat: number, abort: (reason: JobAbort) => void) => Promise<void> = async () => undefined,
): Promise<{ job: Job<DbtSyncPayload>; result: unknown }> {
  // The test server's runner's queue, claimed from by hand: only the heartbeat differs from a run.
  const queue = server.jobs.queue;
  const claimed = await queue.claim('test-runner', { leaseMs: { [dbtSyncJob.kind]: DBT_SYNC_LEASE_MS }, limit: 1000 });
  const job = claimed.find((j) => (j.payload as DbtSyncPayload).syncId === syncJobId) as Job<DbtSyncPayload> | undefined;
  for (const other of claimed) if (other !== job) await queue.release(other);
  if (!job) throw new Error(`no queued job for dbt sync ${syncJobId}`);
  const controller = new AbortController();
  let beats = 0;
  const context: JobContext = {
    store: server.store,
    services: server.services,
    config: server.config,
    signal: controller.signal,
    now: () => Date.now(),
    workerId: 'test-runner',
    heartbeat: async () => {
      await onHeartbeat(++beats, (reason) => controller.abort(reason));
      controller.signal.throwIfAborted();
    },
  };
  const result = await dbtSyncJob.handle(job, context);
  await queue.complete(job, result);
  return { job, result };
}

export { JobAbort };
