import { Type, type Static } from '@sinclair/typebox';
import { defineJob } from '../../jobs/define.js';

const ImportJobPayload = Type.Object({
  accountId: Type.Integer({ minimum: 1 }),
  deploymentId: Type.Integer({ minimum: 1 }),
  reason: Type.Union([Type.Literal('push'), Type.Literal('sync')]),
});
export type ImportJobPayload = Static<typeof ImportJobPayload>;

/**
 * Imports after a push or `plinth github sync`, at most one queued-or-running per deployment (the
 * service's dedupe key); claimed from the store like builds, so any process runs each once.
 */
export const githubImportJob = defineJob({
  kind: 'github.import',
  queue: 'imports',
  payload: ImportJobPayload,
  maxAttempts: 3,
  // A clone may take up to the checkout's 120 s limit; no heartbeat can run inside git.
  leaseMs: 180_000,
  handler: (job, context) => context.services.github.runImport(job.payload, context.signal),
});
