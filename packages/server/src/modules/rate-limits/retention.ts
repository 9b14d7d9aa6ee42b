import { sql } from 'kysely';
import type { RetentionRule } from '../module.js';
import { STALE_MS } from './service.js';

export const rateLimitRetention: RetentionRule[] = [
  {
    // Both rate-limit upserts restart a bucket idle this long, so it counts nothing any more.
    table: 'rate_limit',
    key: 'bucket',
    expired: (now) => sql`last_hit_at < ${new Date(now - STALE_MS)}`,
  },
];
