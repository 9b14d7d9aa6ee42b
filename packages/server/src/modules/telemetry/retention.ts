import { sql } from 'kysely';
import type { RetentionRule } from '../module.js';

const DAY_MS = 24 * 3600_000;

export const telemetryRetention: RetentionRule[] = [
  {
    table: 'telemetry_event',
    key: 'id',
    expired: (now, config) => sql`created_at < ${new Date(now - config.telemetryRetentionDays * DAY_MS)}`,
  },
];
