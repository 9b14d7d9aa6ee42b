import { randomBytes } from 'node:crypto';

/**
 * A claim on one thing (a job, a query's run) by one holder until a moment. Whoever holds it is
 * named by its token: renewing or releasing compares the token and sets in one step
 * (compare-and-set), so a holder whose lease lapsed and was taken by another can no longer act.
 */
export interface Lease {
  readonly key: string;
  readonly token: string;
}

/** Where leases are kept: rows of the store (store.ts) or keys of Redis (redis.ts). */
export interface Leases {
  /** Takes `key` for `ttlMs` if no one holds it or its holder's lease lapsed; undefined while another holds it. */
  acquire(key: string, ttlMs: number, token?: string): Promise<Lease | undefined>;
  /** Extends the lease to `ttlMs` from now, for its holder only: false once it lapsed and was taken, or was released. */
  renew(lease: Lease, ttlMs: number): Promise<boolean>;
  /** Gives the lease up, for its holder only; false when it was no longer held. */
  release(lease: Lease): Promise<boolean>;
}

/** A token no other holder has: the holder's name, made unique per claim. */
export function leaseToken(holder = ''): string {
  return `${holder}${holder ? '#' : ''}${randomBytes(9).toString('base64url')}`;
}

/**
 * Renews the lease every third of its time while the holder works, until the returned function
 * is called. `lost` is told once when a renew finds the lease gone; a renew that fails (the store
 * or Redis unreachable) is tried again at the next beat, as the lease may still hold.
 */
export function keepRenewed(leases: Leases, lease: Lease, ttlMs: number, lost?: () => void): () => void {
  let stopped = false;
  const beat = setInterval(() => {
    leases.renew(lease, ttlMs).then(
      (held) => {
        if (held || stopped) return;
        stopped = true;
        clearInterval(beat);
        lost?.();
      },
      () => undefined,
    );
  }, ttlMs / 3);
  beat.unref();
  return () => {
    stopped = true;
    clearInterval(beat);
  };
}
