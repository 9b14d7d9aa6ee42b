import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { defineJob } from '../../jobs/define.js';
import { cronSchedule } from '../../jobs/schedules.js';
import { loadModules } from '../index.js';
import { retentionRules } from './rules.js';

/** Rows one statement deletes: few enough that no statement holds its locks for long. */
export const SWEEP_BATCH = 1_000;
/** Every hour, on the hour: one sweep per hour whichever processes run, and one after a downtime however long. */
export const RETENTION_SWEEP_CRON = '0 * * * *';

export type SweepResult = Record<string, number>;

/**
 * Deletes what is past retention by every module's rules (`retentionRules`), a batch per statement, each
 * statement on its own (no transaction spans the sweep). SKIP LOCKED passes over rows a request
 * holds: they go in a later batch or sweep. Answers the rows deleted per table.
 */
export const retentionSweep = defineJob({
  kind: 'retention.sweep',
  queue: 'maintenance',
  payload: Type.Object({}),
  maxAttempts: 3,
  async handler(_job, { store, config, now, heartbeat }) {
    const deleted: SweepResult = {};
    const at = now();
    for (const rule of retentionRules(await loadModules())) {
      const table = sql.table(rule.table);
      const key = sql.ref(rule.key);
      for (;;) {
        const result = await sql`
          delete from ${table} where ${key} in (
            select ${key} from ${table} where ${rule.expired(at, config)} limit ${SWEEP_BATCH} for update skip locked)
        `.execute(store.db);
        const count = Number(result.numAffectedRows ?? 0);
        deleted[rule.table] = (deleted[rule.table] ?? 0) + count;
        await heartbeat();
        if (count < SWEEP_BATCH) break;
      }
    }
    return deleted;
  },
});

export const retentionSchedule = cronSchedule({
  name: 'retention.sweep',
  cron: RETENTION_SWEEP_CRON,
  timezone: 'UTC',
  job: retentionSweep,
  payload: () => ({}),
});
