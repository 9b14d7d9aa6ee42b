import { Type } from '@sinclair/typebox';
import { defineJob } from '../../jobs/define.js';
import { exponentialBackoff } from '../../jobs/kind.js';
import type { Executor } from '../../store/executor.js';
import { DeliveryError, INLINE_PNG_CID, postToSlack, sendEmail } from '../delivery/public.js';
import { dashboardForRendering } from '../workbooks/public.js';
import type { NotificationRecipient } from './schemas.js';
import { describeSchedule } from './schedule.js';
import { scheduleOf } from './service.js';

export const DELIVERY_ATTEMPTS = 5;

/**
 * Sends one recipient's copy of a run: by e-mail (the PNG inline, the PDF attached when the
 * notification's format is pdf, a link to the dashboard) or to a Slack channel (the text and the
 * image). Each attempt is counted on the delivery with its error; a retryable failure is tried
 * again with backoff, the rest fail the delivery at once. The notification is read at every
 * attempt, so one disabled or deleted meanwhile sends nothing more; a delivery recorded as sent
 * is never sent again, whichever process holds its job.
 */
export const deliverJob = defineJob({
  kind: 'notifications.deliver',
  queue: 'delivery',
  payload: Type.Object({ deliveryId: Type.Integer() }),
  maxAttempts: DELIVERY_ATTEMPTS,
  backoff: (attempt) => exponentialBackoff(attempt, 2_000, 600_000),
  handler: async (job, env) => {
    const db = env.store.db;
    const found = await db
      .selectFrom('notification_delivery')
      .innerJoin('notification_rendering', 'notification_rendering.id', 'notification_delivery.rendering_id')
      .innerJoin('notification_run', 'notification_run.id', 'notification_delivery.run_id')
      .innerJoin('notification', 'notification.id', 'notification_run.notification_id')
      .selectAll('notification')
      .select([
        'notification_delivery.id as delivery_id',
        'notification_delivery.status as delivery_status',
        'notification_delivery.recipient',
        'notification_delivery.rendering_id',
        'notification_rendering.png',
        'notification_rendering.pdf',
        'notification_rendering.link',
      ])
      .where('notification_delivery.id', '=', job.payload.deliveryId)
      .executeTakeFirst();
    if (!found) return { skipped: 'deleted' };
    if (found.delivery_status !== 'pending' && found.delivery_status !== 'retrying') return { skipped: found.delivery_status };
    const record = async (set: { status: string; last_error: string | null; sent_at?: Date }) => {
      await db
        .updateTable('notification_delivery')
        .set({ ...set, attempts: job.attempt })
        .where('id', '=', found.delivery_id)
        .execute();
      if (set.status !== 'retrying') await releaseImages(db, found.rendering_id);
    };
    if (!found.is_enabled || !found.notification_enabled) {
      await record({ status: 'cancelled', last_error: 'the notification was disabled before it was sent' });
      return { skipped: 'disabled' };
    }
    const recipient = found.recipient as NotificationRecipient;
    const title = (await dashboardForRendering(db, found.dashboard_id))?.title ?? `Dashboard ${found.dashboard_id}`;
    const schedule = describeSchedule(scheduleOf(found));
    const png = found.png ? Buffer.from(found.png) : undefined;
    const pdf = found.pdf ? Buffer.from(found.pdf) : undefined;
    const link = found.link ?? '';
    try {
      if (recipient.type === 'SLACK') {
        await postToSlack(env.services, {
          accountId: found.account_id,
          channelId: recipient.channelId!,
          text: `*${title}* (${schedule}): ${link}`,
          ...(png ? { png } : {}),
        });
      } else {
        await sendEmail(env.services, {
          accountId: found.account_id,
          to: recipient.email!,
          subject: title,
          text: `${title}\n${schedule}\n\nOpen the dashboard: ${link}\n`,
          html: `<p><strong>${escapeHtml(title)}</strong><br>${escapeHtml(schedule)}</p>${
            png ? `<p><img src="cid:${INLINE_PNG_CID}" alt="${escapeHtml(title)}"></p>` : ''
          }<p><a href="${escapeHtml(link)}">Open the dashboard</a></p>`,
          link,
          ...(png ? { png } : {}),
          ...(pdf && found.notification_format === 'pdf' ? { pdf } : {}),
        });
      }
    } catch (error) {
      const message = (error as Error).message;
      const retryable = !(error instanceof DeliveryError) || error.retryable;
      if (retryable && job.attempt < DELIVERY_ATTEMPTS) {
        await record({ status: 'retrying', last_error: message });
        throw error;
      }
      await record({ status: 'failed', last_error: message });
      return { failed: message };
    }
    await record({ status: 'sent', last_error: null, sent_at: new Date(env.now()) });
    return { sent: true };
  },
});

/**
 * Drops a rendering's images once none of its deliveries may still need them: the run's record
 * stays, the megabytes of PNG and PDF do not.
 */
export async function releaseImages(db: Executor, renderingId: number): Promise<void> {
  await db
    .updateTable('notification_rendering')
    .set({ png: null, pdf: null })
    .where('id', '=', renderingId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notification_delivery')
            .select('id')
            .where('rendering_id', '=', renderingId)
            .where('status', 'in', ['pending', 'retrying']),
        ),
      ),
    )
    .execute();
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
