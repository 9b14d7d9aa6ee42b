import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { clientAddress, TELEMETRY_PER_ADDRESS } from '../rate-limits/public.js';
import type { RateLimitService, Verdict } from '../rate-limits/service.js';
import type { TelemetryEvent } from './schemas.js';

/**
 * Stores the client's anonymous usage events. One account hears at most 60 events a minute from
 * one client address, counted in the store for every replica. The machine id is the caller's own
 * choice, so it plays no part in the limit: rotating it gains nothing.
 */
export class TelemetryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly rateLimits: RateLimitService,
  ) {}

  /** The limit's verdict; the event is stored only when admitted. */
  async record(accountId: number, event: Static<typeof TelemetryEvent>, ip: string): Promise<Verdict> {
    const verdict = await this.rateLimits.hit(TELEMETRY_PER_ADDRESS, `${accountId}|${clientAddress(ip)}`);
    if (!verdict.admitted) return verdict;
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
    return verdict;
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
}
