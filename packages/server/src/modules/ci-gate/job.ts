import type { JobKind } from '../../jobs/kind.js';
import type { Job } from '../../store/jobs.js';
import { LEASE_CHECK_JOB, type LeaseCheckPayload } from './lease.js';

/**
 * Ends a CI run whose runner vanished (killed, Ctrl-C before it could finish): due at the lease's
 * end, it exits the run's dev mode when no heartbeat extended the lease, and otherwise queues the
 * next check at the new end. Any server process's one job runner may run it.
 */
export const leaseCheckJob: JobKind = {
  kind: LEASE_CHECK_JOB,
  handle: (job, context) => context.services.ciGate.checkLease((job as Job<LeaseCheckPayload>).payload.runId, context.now()),
};
