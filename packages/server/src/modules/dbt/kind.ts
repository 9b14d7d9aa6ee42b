import { Type, type Static } from '@sinclair/typebox';

/** The job kind that runs dbt syncs; one job per sync, its payload names the sync's row. */
export const DBT_SYNC_JOB = 'dbt.sync';
/**
 * One attempt: a sync that failed for a reason of its project or repository fails the same way
 * again, and one whose process died reads FAILED (its job dead) rather than running twice.
 */
export const DBT_SYNC_MAX_ATTEMPTS = 1;
/** How long a sync's claim holds without a heartbeat; the handler beats between its stages. */
export const DBT_SYNC_LEASE_MS = 60_000;
/** The build trigger of a generated branch's build. */
export const DBT_SYNC_TRIGGER = 'dbt-sync';

export const DbtSyncPayload = Type.Object({ syncId: Type.Integer({ minimum: 1 }) });
export type DbtSyncPayload = Static<typeof DbtSyncPayload>;
