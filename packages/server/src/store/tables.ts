/**
 * Tables that belong to the store itself rather than to a domain module: the migrator's
 * bookkeeping. Every other table is listed in exactly one module's `tables` (schema.test.ts).
 */
export const STORE_TABLES: readonly string[] = ['kysely_migration', 'kysely_migration_lock'];
