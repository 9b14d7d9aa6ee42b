import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Something queries run on: the store's handle or an open transaction. */
export type Executor = Kysely<Database>;

/**
 * Runs `work` in a transaction, joining the caller's when `db` already is one. Services take an
 * optional executor so other modules can call them inside their own transactions; on PGlite (one
 * session) a second, nested transaction or a query outside `trx` would deadlock.
 */
export function inTransaction<T>(db: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** PostgreSQL's unique_violation, raised by both drivers with the same SQLSTATE. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
