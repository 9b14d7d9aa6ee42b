/** The migrator's bookkeeping: not in schema.ts, since Plinth's code never queries it. */
export const MIGRATOR_TABLES: readonly string[] = ['kysely_migration', 'kysely_migration_lock'];

/**
 * Tables that belong to the store itself rather than to a domain module: the migrator's, and the
 * job queue and the cron schedules every module's background work shares (store/jobs.ts,
 * jobs/schedules.ts). Every other table is listed in exactly one module's `tables` (schema.test.ts).
 */
export const STORE_TABLES: readonly string[] = [...MIGRATOR_TABLES, 'job', 'job_schedule'];
