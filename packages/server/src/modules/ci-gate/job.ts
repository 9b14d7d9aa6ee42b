import { Type } from '@sinclair/typebox';
import { defineJob } from '../../jobs/define.js';
import { LEASE_CHECK_JOB } from './lease.js';

/**
 * Ends a CI run whose runner vanished (killed, Ctrl-C before it could finish): due at the lease's
 * end, it exits the run's dev mode when no heartbeat extended the lease, and otherwise queues the
 * next check at the new end. Any server process's one job runner may run it.
 */
export const leaseCheckJob = defineJob({
  kind: LEASE_CHECK_JOB,
  queue: 'maintenance',
  payload: Type.Object({ runId: Type.Integer({ minimum: 1 }) }),
  handler: (job, context) => context.services.ciGate.checkLease(job.payload.runId, context.now()),
});
