import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Something queries run on: the store's handle, which runs in the transaction open in the current
 * async context if there is one (store/transaction.ts), or an open transaction itself.
 */
export type Executor = Kysely<Database>;

/** PostgreSQL's unique_violation, raised by both drivers with the same SQLSTATE. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
