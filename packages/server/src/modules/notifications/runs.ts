import { Type } from '@sinclair/typebox';
import { defineJob } from '../../jobs/define.js';
import type { JobEnv } from '../../jobs/kind.js';
import { rowSchedule } from '../../jobs/schedules.js';
import type { Executor } from '../../store/executor.js';
import type { NotificationRecipientRow } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import { RenderError, viewerFingerprint, type Viewer } from '../rendering/public.js';
import { dashboardForRendering } from '../workbooks/public.js';
import { recipientView } from './recipients.js';
import { renderJob } from './render-job.js';
import { nextRun } from './schedule.js';

/**
 * Starts a due run: records it with one delivery per recipient and one rendering per set of
 * recipients who see the same rows, and queues the renderings, all in one transaction. A second
 * start of the same run (its job retried after a crash) finds the rows there and queues nothing
 * twice: runs are unique per slot, deliveries per recipient and renderings per viewer key.
 */
export const runJob = defineJob({
  kind: 'notifications.run',
  queue: 'delivery',
  payload: Type.Object({ notificationId: Type.Integer(), dueAt: Type.String() }),
  handler: async (job, env) => startRun(env, job.payload.notificationId, new Date(job.payload.dueAt)),
});

export async function startRun(env: JobEnv, notificationId: number, dueAt: Date) {
  const db = env.store.db;
  const row = await db.selectFrom('notification').selectAll().where('id', '=', notificationId).executeTakeFirst();
  // Deleted or turned off after the slot was queued: nothing is sent.
  if (!row || !row.is_enabled) return { skipped: row ? 'disabled' : 'deleted' };
  const dashboard = await dashboardForRendering(db, row.dashboard_id);
  if (!dashboard) return { skipped: 'deleted' };
  const notification = { ...row, public_id: dashboard.public_id };
  const recipients = await db
    .selectFrom('notification_recipient')
    .selectAll()
    .where('notification_id', '=', notificationId)
    .orderBy('id')
    .execute();
  const viewers = await Promise.all(
    recipients.map(async (recipient) => {
      const viewer = viewerOf(recipient, notification.created_by);
      try {
        const key = await viewerFingerprint(env.services, {
          accountId: notification.account_id,
          deploymentId: notification.deployment_id,
          dashboard: notification.public_id,
          viewer,
        });
        return { recipient, viewer, key, problem: null };
      } catch (error) {
        // A recipient no rendering can be made for (an unknown group, a deleted user) fails alone,
        // recorded on their delivery; the others are still sent.
        if (!(error instanceof RenderError) || error.retryable) throw error;
        return { recipient, viewer, key: `unrenderable:${recipient.recipient_key}`, problem: error.message };
      }
    }),
  );
  return transaction(db, async (trx) => {
    const note = !notification.notification_enabled
      ? 'notificationEnabled is false: nothing was sent'
      : recipients.length === 0
        ? 'the notification has no recipients'
        : null;
    const run = await runRow(trx, notification.account_id, notificationId, dueAt, note);
    if (note) return { runId: run.id, skipped: note };
    for (const { viewer, key, problem } of viewers) {
      await trx
        .insertInto('notification_rendering')
        .values({
          run_id: run.id,
          viewer_key: key,
          viewer: JSON.stringify(viewer),
          ...(problem ? { status: 'failed', error: `rendering failed: ${problem}` } : {}),
        })
        .onConflict((oc) => oc.columns(['run_id', 'viewer_key']).doNothing())
        .execute();
    }
    const renderings = await trx
      .selectFrom('notification_rendering')
      .select(['id', 'viewer_key', 'status'])
      .where('run_id', '=', run.id)
      .execute();
    const renderingOf = new Map(renderings.map((r) => [r.viewer_key, r.id]));
    await trx
      .insertInto('notification_delivery')
      .values(
        viewers.map(({ recipient, key, problem }) => ({
          account_id: notification.account_id,
          run_id: run.id,
          rendering_id: renderingOf.get(key)!,
          recipient_key: recipient.recipient_key,
          recipient: JSON.stringify({ ...recipientView(recipient), recipientId: recipient.id }),
          ...(problem ? { status: 'failed', last_error: `rendering failed: ${problem}` } : {}),
        })),
      )
      .onConflict((oc) => oc.columns(['run_id', 'recipient_key']).doNothing())
      .execute();
    for (const rendering of renderings.filter((r) => r.status === 'pending')) {
      await renderJob.enqueue(
        trx,
        { renderingId: rendering.id },
        { accountId: notification.account_id, dedupeKey: `notifications.render:${rendering.id}` },
      );
    }
    return { runId: run.id, renderings: renderings.length, deliveries: viewers.length };
  });
}

async function runRow(db: Executor, accountId: number, notificationId: number, dueAt: Date, note: string | null) {
  const inserted = await db
    .insertInto('notification_run')
    .values({ account_id: accountId, notification_id: notificationId, due_at: dueAt, status: note ? 'skipped' : 'running', note })
    .onConflict((oc) => oc.columns(['notification_id', 'due_at']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return inserted;
  return db
    .selectFrom('notification_run')
    .select('id')
    .where('notification_id', '=', notificationId)
    .where('due_at', '=', dueAt)
    .executeTakeFirstOrThrow();
}

/** Whom the recipient's rendering is for: a user as themselves, an embed user as their session would be minted. */
export function viewerOf(recipient: NotificationRecipientRow, creatorId: number | null): Viewer {
  if (recipient.type === 'EMBED_USER') {
    return {
      kind: 'embed',
      embedTenantName: recipient.embed_tenant_name!,
      externalId: recipient.external_id!,
      ...(recipient.groups ? { groups: recipient.groups } : {}),
      ...(recipient.user_attributes ? { userAttributes: recipient.user_attributes as { name: string; value: string }[] } : {}),
      ...(recipient.security_context ? { securityContext: recipient.security_context } : {}),
    };
  }
  // A channel has no user of its own: it gets what the notification's creator sees (a creator
  // since deleted is no user, and the rendering fails saying so, recorded on the delivery).
  if (recipient.type === 'SLACK') return { kind: 'user', userId: creatorId ?? 0 };
  return { kind: 'user', userId: recipient.user_id! };
}

/**
 * Each enabled notification whose next slot has come: claimed with its row locked (another process
 * passes over it), its run queued with a dedupe key naming the slot, and moved to its first slot
 * after now, so slots missed while no process ran come to one run.
 */
export const notificationSchedule = rowSchedule({
  name: 'notifications',
  job: runJob,
  due: async (db, now, limit) => {
    const rows = await db
      .selectFrom('notification')
      .select(['id', 'account_id', 'next_run_at'])
      .where('is_enabled', '=', true)
      .where('next_run_at', '<=', now)
      .orderBy('next_run_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    return rows.map((row) => ({
      key: String(row.id),
      dueAt: new Date(row.next_run_at!),
      accountId: row.account_id,
      payload: { notificationId: row.id, dueAt: new Date(row.next_run_at!).toISOString() },
    }));
  },
  advance: async (db, row, now) => {
    const notification = await db
      .selectFrom('notification')
      .select(['cron_expression', 'timezone'])
      .where('id', '=', Number(row.key))
      .executeTakeFirstOrThrow();
    const next = nextRun({ cronExpression: notification.cron_expression, timezone: notification.timezone }, now);
    await db.updateTable('notification').set({ next_run_at: next }).where('id', '=', Number(row.key)).execute();
  },
});
