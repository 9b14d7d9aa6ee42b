import { sql, type RawBuilder } from 'kysely';
import type { Store } from '../../store/store.js';

/** The NOTIFY channel of new log lines; the payload is `<account id>:<deployment id>`. */
export const LOG_CHANNEL = 'plinth_deployment_log';

/** Tells every process that a deployment has a new line: PostgreSQL sends it on commit, as the line becomes visible. */
export function notifyLine(accountId: number, deploymentId: number): RawBuilder<unknown> {
  return sql`pg_notify(${LOG_CHANNEL}, ${`${accountId}:${deploymentId}`})`;
}

/**
 * Wakes this process's follows when a line of their deployment is written, by any process: one
 * LISTEN on the store's listener for all of them, started with the first follow. When the
 * listener may have missed messages (its connection dropped), every follow is woken, and reads
 * from what it already sent.
 */
export class LogNotifications {
  private listening: Promise<void> | undefined;
  private readonly followers = new Map<string, Set<() => void>>();

  constructor(private readonly store: Pick<Store, 'listen'>) {}

  /** Listens, if this process does not yet: a follow that reads its backlog after this misses no line. */
  ready(): Promise<void> {
    this.listening ??= this.store.listen(LOG_CHANNEL, (payload) => this.deliver(payload));
    // A listen that failed is tried again by the next follow rather than remembered.
    this.listening.catch(() => (this.listening = undefined));
    return this.listening;
  }

  /** Calls `wake` for each line of the deployment; answers how to stop. */
  subscribe(accountId: number, deploymentId: number, wake: () => void): () => void {
    const key = `${accountId}:${deploymentId}`;
    let wakes = this.followers.get(key);
    if (!wakes) this.followers.set(key, (wakes = new Set()));
    wakes.add(wake);
    return () => {
      wakes.delete(wake);
      if (wakes.size === 0 && this.followers.get(key) === wakes) this.followers.delete(key);
    };
  }

  /** Follows this process serves now (the tests' check that each unsubscribes). */
  get size(): number {
    let size = 0;
    for (const wakes of this.followers.values()) size += wakes.size;
    return size;
  }

  private deliver(payload: string | null): void {
    const wakes = payload === null ? [...this.followers.values()].flatMap((set) => [...set]) : [...(this.followers.get(payload) ?? [])];
    for (const wake of wakes) wake();
  }
}
