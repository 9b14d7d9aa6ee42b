import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { ApiError } from '../../http/errors.js';
import type { Database } from '../../store/schema.js';
import { delayAfter, type DelayPolicy, type WindowPolicy } from './policies.js';

export type Verdict = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/**
 * Rate limits kept in the metadata store, so every replica counts the same hits. Each hit is one
 * atomic upsert that counts and decides together: concurrent requests on PostgreSQL queue on the
 * bucket's row and cannot all slip past the limit. Time comes from `now`, so tests move a clock
 * instead of sleeping.
 */
export class RateLimitService {
  now: () => number = Date.now;

  constructor(
    private readonly db: Kysely<Database>,
    /** The first step of every delay policy; doubled at each further attempt. */
    public delayBaseMs: number,
  ) {}

  /** Takes an attempt of a delay policy: admitted unless the bucket must still wait. */
  async attempt(policy: DelayPolicy, key: string): Promise<Verdict> {
    const bucket = bucketOf(policy.name, key);
    const now = new Date(this.now());
    const forgetBefore = new Date(now.getTime() - policy.forgetAfterMs);
    // The WHERE of DO UPDATE leaves a waiting bucket untouched and returns no row: refused.
    const row = await sql<{ hits: number }>`
      insert into rate_limit as r (bucket, hits, window_start, last_hit_at)
      values (${bucket}, 1, ${now}, ${now})
      on conflict (bucket) do update set
        hits = case when r.last_hit_at < ${forgetBefore} then 1 else r.hits + 1 end,
        window_start = case when r.last_hit_at < ${forgetBefore} then excluded.window_start else r.window_start end,
        last_hit_at = excluded.last_hit_at
      where r.last_hit_at < ${forgetBefore}
         or r.hits < ${policy.free}
         or r.last_hit_at + least(${policy.capMs}::float8, ${this.delayBaseMs}::float8 * power(2, least(r.hits - ${policy.free}, 40)))
              * interval '1 millisecond' <= ${now}
      returning hits
    `.execute(this.db);
    if (row.rows.length > 0) return { admitted: true };
    const current = await this.db.selectFrom('rate_limit').select(['hits', 'last_hit_at']).where('bucket', '=', bucket).executeTakeFirst();
    const until = current ? current.last_hit_at.getTime() + delayAfter(policy, current.hits, this.delayBaseMs) : now.getTime();
    return { admitted: false, retryAfterSeconds: secondsUntil(until, now.getTime()) };
  }

  /** Gives an attempt back, e.g. when the request was refused by another limit before it tried. */
  async refund(policy: DelayPolicy, key: string): Promise<void> {
    await this.db
      .updateTable('rate_limit')
      .set({ hits: sql`greatest(hits - 1, 0)` })
      .where('bucket', '=', bucketOf(policy.name, key))
      .execute();
  }

  /** Forgets a bucket: a successful sign-in clears its e-mail's delay. */
  async reset(policy: DelayPolicy | WindowPolicy, key: string): Promise<void> {
    await this.db.deleteFrom('rate_limit').where('bucket', '=', bucketOf(policy.name, key)).execute();
  }

  /** Counts a hit of a window policy: admitted while the window holds at most `limit` hits. */
  async hit(policy: WindowPolicy, key: string): Promise<Verdict> {
    const bucket = bucketOf(policy.name, key);
    const now = new Date(this.now());
    const windowOpenedAfter = new Date(now.getTime() - policy.windowMs);
    const result = await sql<{ hits: number; window_start: Date }>`
      insert into rate_limit as r (bucket, hits, window_start, last_hit_at)
      values (${bucket}, 1, ${now}, ${now})
      on conflict (bucket) do update set
        hits = case when r.window_start <= ${windowOpenedAfter} then 1 else r.hits + 1 end,
        window_start = case when r.window_start <= ${windowOpenedAfter} then excluded.window_start else r.window_start end,
        last_hit_at = excluded.last_hit_at
      returning hits, window_start
    `.execute(this.db);
    const row = result.rows[0]!;
    if (row.hits <= policy.limit) return { admitted: true };
    return { admitted: false, retryAfterSeconds: secondsUntil(new Date(row.window_start).getTime() + policy.windowMs, now.getTime()) };
  }
}

/**
 * Longer than any policy's window or memory: a bucket idle this long counts nothing any more, so
 * the retention sweep (modules/retention) deletes it. Both upserts above restart a bucket whose
 * window or memory is over, so a stale row the sweep has not reached yet never counts.
 */
export const STALE_MS = 24 * 3600_000;

function bucketOf(policy: string, key: string): string {
  // Hashed: buckets have one length and the table holds no e-mail address or client address.
  return `${policy}:${createHash('sha256').update(key).digest('base64url')}`;
}

function secondsUntil(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}

/** A 429 whose `Retry-After` the error handler sends. */
export function tooManyRequests(message: string, retryAfterSeconds: number): ApiError {
  return new ApiError('too_many_requests', message, { retryAfterSeconds });
}
