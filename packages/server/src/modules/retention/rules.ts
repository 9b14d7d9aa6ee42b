import { sql } from 'kysely';
import type { PlinthModule, RetentionRule } from '../module.js';

const DAY_MS = 24 * 3600_000;

/** Finished jobs stay this long for whoever looks into what ran; dead ones longer, to be diagnosed. */
export const FINISHED_JOB_RETENTION_MS = 7 * DAY_MS;
export const DEAD_JOB_RETENTION_MS = 30 * DAY_MS;

const before = (now: number, ms: number) => new Date(now - ms);

/** The rules of the store's own tables (the job queue); each module declares its tables' (PlinthModule.retention). */
export const storeRetention: RetentionRule[] = [
  {
    table: 'job',
    key: 'id',
    expired: (now) => sql`finished_at < ${before(now, FINISHED_JOB_RETENTION_MS)} and state in ('succeeded', 'cancelled')`,
  },
  {
    table: 'job',
    key: 'id',
    expired: (now) => sql`finished_at < ${before(now, DEAD_JOB_RETENTION_MS)} and state = 'dead'`,
  },
];

/** Every rule the sweep applies: each module's, then the store's. */
export function retentionRules(modules: readonly PlinthModule[]): RetentionRule[] {
  return [...modules.flatMap((module) => module.retention ?? []), ...storeRetention];
}
