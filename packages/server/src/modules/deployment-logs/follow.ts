import { Readable } from 'node:stream';
import type { DeploymentLogLine } from './schemas.js';

/**
 * A backstop only: a follow reads when the store says a line was written (notifications.ts). It
 * reads anyway this long after its last read, for a line written by a statement that never told.
 */
export const REREAD_MS = 60_000;
export const HEARTBEAT_MS = 15_000;
/** How long after a line is sent a line with a smaller id may still commit and be sent late. */
export const SETTLE_MS = 5_000;

/** How often a follow reads without being woken and sends a heartbeat; tests change them. */
export interface FollowTiming {
  rereadMs?: number;
  heartbeatMs?: number;
  settleMs?: number;
}

export interface FollowOptions extends FollowTiming {
  /** The lines a list gives, sent first. */
  backlog: DeploymentLogLine[];
  /** The id after which new lines are read: the backlog's last line, else the `since` asked for. */
  cursor: number;
  /** Reads at most `pageSize` lines after a cursor, oldest first (the service's `after`, with the caller's filters). */
  read(cursor: number): Promise<DeploymentLogLine[]>;
  /** What one read answers at most: a full page is followed by a read of the next at once. */
  pageSize: number;
  /** Calls `wake` whenever a line of the followed deployment may have been written; answers how to stop. */
  subscribe(wake: () => void): () => void;
}

/**
 * A follow's body, `application/x-ndjson`: one line object per line, then every new line as the
 * table shows it. A read runs when the store tells that a line was written (by any process: the
 * notification comes on commit), when the listener may have missed one (it reconnected), and at
 * the latest REREAD_MS after the last read; reading always starts from what was already sent, so
 * a missed notification delays a line, never loses it. Destroying the stream (Fastify does when
 * the client goes away, the app when it closes) stops its timers and its subscription.
 *
 * Ids are given at insert, not at commit: when two processes append at once, the larger id may
 * commit first. So a read does not start after the last id sent but after `settled`, the largest
 * id sent SETTLE_MS ago or more, and skips the ids sent since: a line that commits late is still
 * sent (after lines with larger ids), once. (At the backlog's edge the same race stays open.)
 */
export class FollowStream extends Readable {
  /** Every line up to this id has been sent or is taken as never coming. */
  private settled: number;
  /** Lines sent within SETTLE_MS: id and when, in the order sent. */
  private recent: Array<{ id: number; at: number }> = [];
  private reread: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null;
  /** A read is running; `again`: a wake came meanwhile, so another read follows it. */
  private reading = false;
  private again = false;
  private stopped = false;

  constructor(private readonly options: FollowOptions) {
    super();
    this.settled = options.cursor;
    // Something to send at once, so the status and headers leave now even with no backlog.
    this.push(options.backlog.length === 0 ? '\n' : options.backlog.map(ndjson).join(''));
    this.heartbeat = setInterval(() => this.push('\n'), options.heartbeatMs ?? HEARTBEAT_MS);
    this.unsubscribe = options.subscribe(() => this.wake());
    // A line that committed after the backlog was read but before the subscription told no one.
    this.wake();
  }

  /** Whether a timer or the subscription is still set: false once the stream is destroyed (the tests' check for leaks). */
  get running(): boolean {
    return this.reread !== null || this.heartbeat !== null || this.unsubscribe !== null;
  }

  /** Ends the body cleanly (the server is closing): the client sees the stream end, not a reset. */
  finish(): void {
    if (this.stopped) return;
    this.stop();
    this.push(null);
  }

  override _read(): void {
    // Lines are pushed as reads find them; the reader's pace only decides when they are written.
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.stop();
    callback(error);
  }

  private stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.reread) clearTimeout(this.reread);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.reread = this.heartbeat = this.unsubscribe = null;
  }

  /** One read at a time: wakes during a read make one more read after it, never a pile of them. */
  private wake(): void {
    if (this.stopped) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    void this.next();
  }

  private settle(fresh: DeploymentLogLine[], now: number): void {
    for (const line of fresh) this.recent.push({ id: line.id, at: now });
    const settleMs = this.options.settleMs ?? SETTLE_MS;
    const old = this.recent.filter((line) => now - line.at >= settleMs);
    if (old.length === 0) return;
    this.settled = Math.max(this.settled, ...old.map((line) => line.id));
    this.recent = this.recent.filter((line) => line.id > this.settled);
  }

  /** Reads from `settled`, or from the end of the page before when that one was full. */
  private async next(from = this.settled): Promise<void> {
    this.reading = true;
    this.again = false;
    if (this.reread) clearTimeout(this.reread);
    this.reread = null;
    try {
      const lines = await this.options.read(from);
      if (this.stopped) return;
      const sent = new Set(this.recent.map((line) => line.id));
      const fresh = lines.filter((line) => !sent.has(line.id));
      if (fresh.length > 0) this.push(fresh.map(ndjson).join(''));
      this.settle(fresh, Date.now());
      if (lines.length >= this.options.pageSize) return void this.next(lines.at(-1)!.id);
      this.reading = false;
      if (this.again) return void this.next();
      this.reread = setTimeout(() => this.wake(), this.options.rereadMs ?? REREAD_MS);
    } catch (error) {
      this.reading = false;
      if (!this.stopped) this.destroy(error as Error);
    }
  }
}

const ndjson = (line: DeploymentLogLine) => `${JSON.stringify(line)}\n`;
