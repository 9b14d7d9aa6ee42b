import type { Executor } from '../../store/executor.js';

// deadlock_detected, serialization_failure, and the two a concurrent writer can cause between our
// read and our write: a group deleted under us (foreign_key_violation), a row created under us
// (unique_violation). A fresh attempt sees the new state and either succeeds or fails cleanly.
const RETRYABLE = new Set(['40P01', '40001', '23503', '23505']);
const ATTEMPTS = 5;

/** Whether PostgreSQL aborted the work for a reason that a fresh attempt of the whole transaction cures. */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

/**
 * Runs `work` in a transaction of its own, again from the start when PostgreSQL aborted it for a
 * reason a retry cures; `onRetry` runs first, to drop whatever remembered state may have caused
 * it. Inside an existing transaction it just runs, and the caller owns retries.
 */
export async function transactionWithRetry<T>(db: Executor, work: (trx: Executor) => Promise<T>, onRetry?: () => void): Promise<T> {
  if (db.isTransaction) return work(db);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
      onRetry?.();
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}
