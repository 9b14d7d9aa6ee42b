import { Readable } from 'node:stream';
import type { DeploymentLogLine } from './schemas.js';

export const POLL_MS = 500;
export const HEARTBEAT_MS = 15_000;

/** How often a follow polls and sends a heartbeat; tests shorten them. */
export interface FollowTiming {
  pollMs?: number;
  heartbeatMs?: number;
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
 * The cursor is the last id sent. Ids are given at insert and lines commit at once (each append
 * is its own statement), so a line can only be passed over if two processes append to the same
 * deployment within the same instant and the later id commits first; a list shows it anyway.
 */
export class FollowStream extends Readable {
  private cursor: number;
  private poll: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: FollowOptions) {
    super();
    this.cursor = options.cursor;
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

  // One poll at a time: the next is scheduled when the previous has answered, never stacked.
  private schedule(): void {
    this.poll = setTimeout(() => void this.next(), this.options.pollMs ?? POLL_MS);
  }

  private async next(): Promise<void> {
    this.poll = null;
    try {
      const lines = await this.options.read(this.cursor);
      if (this.stopped) return;
      if (lines.length > 0) {
        this.cursor = lines[lines.length - 1]!.id;
        this.push(lines.map(ndjson).join(''));
      }
      this.schedule();
    } catch (error) {
      if (!this.stopped) this.destroy(error as Error);
    }
  }
}

const ndjson = (line: DeploymentLogLine) => `${JSON.stringify(line)}\n`;
