import { Readable } from 'node:stream';
import type { DeploymentLogLine } from './schemas.js';

export const POLL_MS = 500;
export const HEARTBEAT_MS = 15_000;
/** How long after a line is sent a line with a smaller id may still commit and be sent late. */
export const SETTLE_MS = 5_000;

/** How often a follow polls and sends a heartbeat; tests shorten them. */
export interface FollowTiming {
  pollMs?: number;
  heartbeatMs?: number;
  settleMs?: number;
}

export interface FollowOptions extends FollowTiming {
  /** The lines a list gives, sent first. */
  backlog: DeploymentLogLine[];
  /** The id after which new lines are read: the backlog's last line, else the `since` asked for. */
  cursor: number;
  /** Reads the lines after a cursor, oldest first (the service's `after`, with the caller's filters). */
  read(cursor: number): Promise<DeploymentLogLine[]>;
}

/**
 * A follow's body, `application/x-ndjson`: one line object per line, then every new line as a
 * poll of the table finds it. Several server processes share the table, so polling it is what
 * makes a line written by any of them reach every follower. Destroying the stream (Fastify does
 * when the client goes away, the app when it closes) stops both timers: nothing outlives it.
 *
 * Ids are given at insert, not at commit: when two processes append at once, the larger id may
 * commit first. So a poll does not read after the last id sent but after `settled`, the largest
 * id sent SETTLE_MS ago or more, and skips the ids sent since: a line that commits late is still
 * sent (after lines with larger ids), once. (At the backlog's edge the same race stays open.)
 */
export class FollowStream extends Readable {
  /** Every line up to this id has been sent or is taken as never coming. */
  private settled: number;
  /** Lines sent within SETTLE_MS: id and when, in the order sent. */
  private recent: Array<{ id: number; at: number }> = [];
  private poll: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: FollowOptions) {
    super();
    this.settled = options.cursor;
    // Something to send at once, so the status and headers leave now even with no backlog.
    this.push(options.backlog.length === 0 ? '\n' : options.backlog.map(ndjson).join(''));
    this.schedule();
    this.heartbeat = setInterval(() => this.push('\n'), options.heartbeatMs ?? HEARTBEAT_MS);
  }

  /** Whether a timer is still set: false once the stream is destroyed (the tests' check for leaks). */
  get running(): boolean {
    return this.poll !== null || this.heartbeat !== null;
  }

  /** Ends the body cleanly (the server is closing): the client sees the stream end, not a reset. */
  finish(): void {
    if (this.stopped) return;
    this.stop();
    this.push(null);
  }

  override _read(): void {
    // Lines are pushed as polls find them; the reader's pace only decides when they are written.
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.stop();
    callback(error);
  }

  private stop(): void {
    this.stopped = true;
    if (this.poll) clearTimeout(this.poll);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.poll = this.heartbeat = null;
  }

  private settle(fresh: DeploymentLogLine[], now: number): void {
    for (const line of fresh) this.recent.push({ id: line.id, at: now });
    const settleMs = this.options.settleMs ?? SETTLE_MS;
    const old = this.recent.filter((line) => now - line.at >= settleMs);
    if (old.length === 0) return;
    this.settled = Math.max(this.settled, ...old.map((line) => line.id));
    this.recent = this.recent.filter((line) => line.id > this.settled);
  }

  // One poll at a time: the next is scheduled when the previous has answered, never stacked.
  private schedule(): void {
    this.poll = setTimeout(() => void this.next(), this.options.pollMs ?? POLL_MS);
  }

  private async next(): Promise<void> {
    this.poll = null;
    try {
      const lines = await this.options.read(this.settled);
      if (this.stopped) return;
      const sent = new Set(this.recent.map((line) => line.id));
      const fresh = lines.filter((line) => !sent.has(line.id));
      if (fresh.length > 0) this.push(fresh.map(ndjson).join(''));
      this.settle(fresh, Date.now());
      this.schedule();
    } catch (error) {
      if (!this.stopped) this.destroy(error as Error);
    }
  }
}

const ndjson = (line: DeploymentLogLine) => `${JSON.stringify(line)}\n`;
