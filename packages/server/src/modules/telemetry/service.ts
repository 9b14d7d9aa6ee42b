import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { TelemetryEvent } from './schemas.js';

const WINDOW_MS = 60_000;
const PER_SOURCE_PER_WINDOW = 60;

/**
 * Stores the client's anonymous usage events. A source (machine id, or the caller's address) may
 * send at most 60 events a minute; more are dropped, not stored. The limit is per process, which is
 * enough to keep one noisy client from filling the table.
 */
export class TelemetryService {
  private readonly windows = new Map<string, { count: number; since: number }>();

  constructor(private readonly db: Kysely<Database>) {}

  /** False when the event was over the limit and dropped. */
  async record(accountId: number, event: Static<typeof TelemetryEvent>, source: string): Promise<boolean> {
    if (!this.admit(`${source}|${event.machineId}`)) return false;
    await this.db
      .insertInto('telemetry_event')
      .values({
        account_id: accountId,
        command: event.command,
        success: event.success,
        version: event.version,
        platform: event.platform,
        machine_id: event.machineId,
      })
      .execute();
    return true;
  }

  /** Counts per command group and outcome, for an admin's report or a test. */
  summary(accountId: number) {
    return this.db
      .selectFrom('telemetry_event')
      .select(['command', 'success', (eb) => eb.fn.countAll<number>().as('count')])
      .where('account_id', '=', accountId)
      .groupBy(['command', 'success'])
      .orderBy('command')
      .execute();
  }

  private admit(key: string): boolean {
    const now = Date.now();
    const window = this.windows.get(key);
    if (!window || now - window.since >= WINDOW_MS) {
      if (this.windows.size > 50_000) this.windows.clear();
      this.windows.set(key, { count: 1, since: now });
      return true;
    }
    window.count += 1;
    return window.count <= PER_SOURCE_PER_WINDOW;
  }
}
