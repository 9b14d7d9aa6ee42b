/** How long a run holds its lease without a heartbeat; the CLI beats every quarter of it. */
export const LEASE_SECONDS = 60;
/** A second run waits this long for its turn unless it says otherwise, and never longer than MAX_WAIT_SECONDS. */
export const DEFAULT_WAIT_SECONDS = 300;
export const MAX_WAIT_SECONDS = 600;
/** A waiting request looks again this often even without a wake-up (a holder in another process may just lapse). */
export const WAIT_POLL_MS = 1_000;
/** Notified when a run ends, so requests waiting for its pair in any process look at once. */
export const RELEASED_CHANNEL = 'plinth_ci_run_released';
/** The job kind that ends a run whose lease lapsed: one due at each lease end, re-queued while heartbeats extend it. */
export const LEASE_CHECK_JOB = 'ci-gate.lease-check';

/**
 * Resolves after `ms`, or earlier when woken or aborted: the waiting request's only pause, and it
 * holds no transaction or connection meanwhile.
 */
export function pause(ms: number, wakers: Set<() => void>, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      wakers.delete(done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    wakers.add(done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
