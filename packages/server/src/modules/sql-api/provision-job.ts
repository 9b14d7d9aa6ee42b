import { Type } from '@sinclair/typebox';
import { defineJob } from '../../jobs/define.js';

/** The job's kind, and its dedupe key: servers starting together queue one run between them. */
export const PROVISION_MISSING_JOB = 'sql-api.provision-missing';

/**
 * Gives their SQL credentials to the environments made before credentials came with their
 * branches. Each server queues it once it serves, so a deployment with many environments no
 * longer holds back readiness; a failure is the job's (logged and retried by the runner), never
 * the server's. Answers how many credentials it made, kept on the job's row.
 */
export const provisionMissingJob = defineJob({
  kind: PROVISION_MISSING_JOB,
  queue: 'maintenance',
  payload: Type.Object({}),
  maxAttempts: 3,
  handler: async (_job, { services, heartbeat }) => ({ environments: await services.sqlApi.provisionMissing(heartbeat) }),
});
