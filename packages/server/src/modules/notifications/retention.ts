import { sql } from 'kysely';
import type { RetentionRule } from '../module.js';

/** How long a run's record (its deliveries and renderings cascade with it) is kept for `plinth notifications runs`. */
export const RUN_RECORD_DAYS = 90;

export const notificationRetention: RetentionRule[] = [
  {
    // A run's record answers "was it sent, to whom, and why not": after three months nobody asks,
    // and an hourly notification would otherwise keep 2,000 runs a quarter.
    table: 'notification_run',
    key: 'id',
    expired: (now) => sql`created_at < ${new Date(now - RUN_RECORD_DAYS * 86_400_000)}`,
  },
];
