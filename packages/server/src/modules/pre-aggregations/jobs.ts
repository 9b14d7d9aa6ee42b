import { Type, type Static } from '@sinclair/typebox';
import { sql } from 'kysely';
import { defineJob } from '../../jobs/define.js';
import { exponentialBackoff } from '../../jobs/kind.js';
import { rowSchedule } from '../../jobs/schedules.js';

export const REFRESH_JOB = 'pre-aggregations.refresh';
/** A partition that keeps failing is retried this often; then the build stops waiting for it. */
export const REFRESH_MAX_ATTEMPTS = 3;

const RefreshPayload = Type.Object({
  deploymentId: Type.Integer({ minimum: 1 }),
  buildId: Type.Integer({ minimum: 1 }),
  rollupId: Type.String(),
  /** An operator's build: rebuild these partitions (every one when empty) whatever their refresh key says. */
  force: Type.Optional(Type.Array(Type.String())),
});
export type RefreshPayload = Static<typeof RefreshPayload>;

/**
 * Refreshes one rollup of one build. The job's dedupe key is the build and rollup, so at most one
 * refresh of a rollup is queued or running across every process, and the claim on it decides
 * which process builds.
 */
export const refreshJob = defineJob({
  kind: REFRESH_JOB,
  queue: 'rollups',
  payload: RefreshPayload,
  maxAttempts: REFRESH_MAX_ATTEMPTS,
  backoff: (attempt) => exponentialBackoff(attempt, 5_000, 300_000),
  leaseMs: 120_000,
  handler: (job, context) => context.services.preAggregations.runRefresh(job, context),
});

export const refreshDedupeKey = (buildId: number, rollupId: string) => `${buildId}:${rollupId}`;

/**
 * Each rollup of a build being served is looked at again at its check interval (refresh.ts decides
 * whether anything is stale). Rows of builds no longer served are gone (service.ts).
 */
export const refreshSchedule = rowSchedule<RefreshPayload>({
  name: 'pre-aggregations.refresh-check',
  job: refreshJob,
  async due(db, now, limit) {
    const rows = await db
      .selectFrom('rollup_schedule')
      .selectAll()
      .where('next_check_at', '<=', now)
      // A rollup with a refresh queued or running is looked at when that one is done.
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('job')
              .select('job.id')
              .where('job.kind', '=', REFRESH_JOB)
              .where('job.state', 'in', ['queued', 'running'])
              .where(
                sql<boolean>`job.payload->>'buildId' = rollup_schedule.build_id::text and job.payload->>'rollupId' = rollup_schedule.rollup_id`,
              ),
          ),
        ),
      )
      .orderBy('next_check_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    return rows.map((row) => ({
      key: refreshDedupeKey(row.build_id, row.rollup_id),
      dueAt: row.next_check_at,
      accountId: row.account_id,
      payload: { deploymentId: row.deployment_id, buildId: row.build_id, rollupId: row.rollup_id },
    }));
  },
  async advance(db, row, now) {
    await db
      .updateTable('rollup_schedule')
      .set({ next_check_at: sql<Date>`${now}::timestamptz + make_interval(secs => check_ms / 1000.0)`, last_checked_at: now })
      .where('build_id', '=', row.payload.buildId)
      .where('rollup_id', '=', row.payload.rollupId)
      .execute();
  },
});
