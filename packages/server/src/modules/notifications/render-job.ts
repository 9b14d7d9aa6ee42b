import { Type } from '@sinclair/typebox';
import { defineJob } from '../../jobs/define.js';
import { exponentialBackoff } from '../../jobs/kind.js';
import type { Executor } from '../../store/executor.js';
import { renderDashboard, RenderError, type Viewer } from '../rendering/public.js';
import { dashboardForRendering } from '../workbooks/public.js';
import { deliverJob, releaseImages } from './deliver-job.js';

export const RENDER_ATTEMPTS = 4;

/**
 * Renders a run's dashboard once for the recipients who share a viewer key, keeps the PNG (and
 * the PDF when the notification sends one) on the rendering row, then queues each of those
 * recipients' deliveries. A rendering the input itself makes impossible, or out of attempts,
 * fails its deliveries with the reason.
 */
export const renderJob = defineJob({
  kind: 'notifications.render',
  queue: 'rendering',
  payload: Type.Object({ renderingId: Type.Integer() }),
  maxAttempts: RENDER_ATTEMPTS,
  backoff: (attempt) => exponentialBackoff(attempt, 5_000, 300_000),
  leaseMs: 120_000,
  handler: async (job, env) => {
    const db = env.store.db;
    const found = await db
      .selectFrom('notification_rendering')
      .innerJoin('notification_run', 'notification_run.id', 'notification_rendering.run_id')
      .innerJoin('notification', 'notification.id', 'notification_run.notification_id')
      .select([
        'notification_rendering.id',
        'notification_rendering.status',
        'notification_rendering.viewer',
        'notification.account_id',
        'notification.deployment_id',
        'notification.is_enabled',
        'notification.notification_enabled',
        'notification.notification_format',
        'notification.dashboard_id',
      ])
      .where('notification_rendering.id', '=', job.payload.renderingId)
      .executeTakeFirst();
    // The notification (and with it the run) was deleted after this was queued.
    if (!found) return { skipped: 'deleted' };
    if (!found.is_enabled || !found.notification_enabled) {
      await cancelDeliveries(db, found.id, 'the notification was disabled before it was sent');
      return { skipped: 'disabled' };
    }
    if (found.status === 'pending') {
      const dashboard = await dashboardForRendering(db, found.dashboard_id);
      if (!dashboard) return { skipped: 'deleted' };
      try {
        const rendered = await renderDashboard(env.services, {
          accountId: found.account_id,
          deploymentId: found.deployment_id,
          dashboard: dashboard.public_id,
          viewer: found.viewer as Viewer,
          formats: found.notification_format === 'pdf' ? ['png', 'pdf'] : ['png'],
        });
        await db
          .updateTable('notification_rendering')
          .set({
            status: 'done',
            png: rendered.png ?? null,
            pdf: rendered.pdf ?? null,
            data_fingerprint: rendered.dataFingerprint,
            link: rendered.link,
            finished_at: new Date(env.now()),
          })
          .where('id', '=', found.id)
          .execute();
      } catch (error) {
        const retryable = !(error instanceof RenderError) || error.retryable;
        if (retryable && job.attempt < RENDER_ATTEMPTS) throw error;
        await failRendering(db, found.id, `rendering failed: ${(error as Error).message}`);
        return { failed: (error as Error).message };
      }
    }
    const deliveries = await queueDeliveries(db, found.id, found.account_id);
    return { deliveries };
  },
});

async function queueDeliveries(db: Executor, renderingId: number, accountId: number): Promise<number> {
  const open = await db
    .selectFrom('notification_delivery')
    .select('id')
    .where('rendering_id', '=', renderingId)
    .where('status', 'in', ['pending', 'retrying'])
    .execute();
  for (const { id } of open) {
    await deliverJob.enqueue(db, { deliveryId: id }, { accountId, dedupeKey: `notifications.deliver:${id}` });
  }
  return open.length;
}

async function failRendering(db: Executor, renderingId: number, reason: string): Promise<void> {
  await db
    .updateTable('notification_rendering')
    .set({ status: 'failed', error: reason, finished_at: new Date() })
    .where('id', '=', renderingId)
    .execute();
  await db
    .updateTable('notification_delivery')
    .set({ status: 'failed', last_error: reason })
    .where('rendering_id', '=', renderingId)
    .where('status', 'in', ['pending', 'retrying'])
    .execute();
}

export async function cancelDeliveries(db: Executor, renderingId: number, reason: string): Promise<void> {
  await db
    .updateTable('notification_delivery')
    .set({ status: 'cancelled', last_error: reason })
    .where('rendering_id', '=', renderingId)
    .where('status', 'in', ['pending', 'retrying'])
    .execute();
  await releaseImages(db, renderingId);
}
