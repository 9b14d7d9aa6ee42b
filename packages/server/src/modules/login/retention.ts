import { sql } from 'kysely';
import type { RetentionRule } from '../module.js';
import { PURGE_GRACE_MS } from './repo.js';

export const loginRetention: RetentionRule[] = [
  {
    // Kept for login's grace, so a late click still hears "expired" rather than "unknown".
    table: 'device_authorization',
    key: 'id',
    expired: (now) => sql`expires_at < ${new Date(now - PURGE_GRACE_MS)}`,
  },
];
