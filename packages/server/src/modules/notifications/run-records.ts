import { decodeCursor, pageSize, toPage, type ListOrder } from '../../http/pagination.js';
import type { UserPrincipal } from '../../http/principal.js';
import type { NotificationDeliveryRow, NotificationRunRow } from '../../store/schema.js';
import type { ServiceContext } from '../module.js';
import type { NotificationRecipient, NotificationRun } from './schemas.js';
import type { NotificationService } from './service.js';

const RUN_ORDER: ListOrder<{ id: number }> = { list: 'notification-runs', sort: 'id', kind: 'id', direction: 'desc', keyOf: (r) => r.id };

/**
 * A notification's runs, newest first, each with its deliveries: what was sent to whom, how many
 * attempts it took and why the last one failed. Reading them needs WorkbookRead on the dashboard.
 */
export class RunRecords {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly notifications: NotificationService,
  ) {}

  async list(principal: UserPrincipal, deploymentId: number, id: number, query: { first?: number; after?: string }) {
    // The cursor first: a bad one is the caller's mistake whether or not the notification exists.
    const after = decodeCursor(RUN_ORDER, query.after)?.id;
    const notification = await this.notifications.demand(principal, deploymentId, id, 'Read');
    let select = this.ctx.db.selectFrom('notification_run').selectAll().where('notification_id', '=', notification.id);
    if (after !== undefined) select = select.where('id', '<', after);
    const runs = await select
      .orderBy('id', 'desc')
      .limit(pageSize(query) + 1)
      .execute();
    const ids = runs.map((r) => r.id);
    const deliveries = ids.length
      ? await this.ctx.db.selectFrom('notification_delivery').selectAll().where('run_id', 'in', ids).orderBy('id').execute()
      : [];
    const renderings = ids.length
      ? await this.ctx.db
          .selectFrom('notification_rendering')
          .select(['run_id', (eb) => eb.fn.countAll<string | number>().as('n')])
          .where('run_id', 'in', ids)
          .groupBy('run_id')
          .execute()
      : [];
    const renderingsOf = new Map(renderings.map((r) => [r.run_id, Number(r.n)]));
    return toPage(RUN_ORDER, runs, query, (run) =>
      runView(
        run,
        deliveries.filter((d) => d.run_id === run.id),
        renderingsOf.get(run.id) ?? 0,
      ),
    );
  }
}

export function runView(run: NotificationRunRow, deliveries: NotificationDeliveryRow[], renderings: number): NotificationRun {
  return {
    id: run.id,
    notificationId: run.notification_id,
    dueAt: new Date(run.due_at).toISOString(),
    createdAt: new Date(run.created_at).toISOString(),
    status: runStatus(run.status, deliveries),
    note: run.note,
    renderings,
    deliveries: deliveries.map((d) => {
      const { recipientId: _, ...recipient } = d.recipient as NotificationRecipient & { recipientId?: number };
      return {
        id: d.id,
        recipient,
        status: d.status as NotificationRun['deliveries'][number]['status'],
        attempts: d.attempts,
        lastError: d.last_error,
        sentAt: d.sent_at ? new Date(d.sent_at).toISOString() : null,
      };
    }),
  };
}

/** A started run's status follows its deliveries: running while any is open, then how they ended. */
function runStatus(stored: string, deliveries: NotificationDeliveryRow[]): NotificationRun['status'] {
  if (stored !== 'running') return stored as NotificationRun['status'];
  if (deliveries.some((d) => d.status === 'pending' || d.status === 'retrying')) return 'running';
  const sent = deliveries.filter((d) => d.status === 'sent').length;
  if (sent === deliveries.length) return 'sent';
  if (deliveries.every((d) => d.status === 'cancelled')) return 'cancelled';
  return sent > 0 ? 'partial' : 'failed';
}
