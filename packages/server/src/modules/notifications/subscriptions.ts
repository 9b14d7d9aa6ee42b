import { byId, decodeCursor, pageSize, toPage } from '../../http/pagination.js';
import type { UserPrincipal } from '../../http/principal.js';
import { transaction } from '../../store/transaction.js';
import type { ServiceContext } from '../module.js';
import { checkRemoval, parseRecipients, recipientView, removalMatches, type RecipientValues } from './recipients.js';
import type { NotificationRecipient, NotificationRecipientInput, RemoveNotificationRecipientInput } from './schemas.js';
import type { NotificationService } from './service.js';

const RECIPIENT_ORDER = { ...byId('notification-recipients'), direction: 'desc' as const };

/** The fields an existing recipient's entry may change: what an embed user sees, a channel's name. */
const MUTABLE = ['email', 'groups', 'user_attributes', 'security_context', 'channel_name'] as const;

/**
 * A notification's recipients. Adding is idempotent: each entry is created, updated (an embed
 * user's email, groups, attributes or security context, a channel's name changed) or left as it
 * was; removing one that is not subscribed is no error. Both need WorkbookEdit on the dashboard.
 */
export class SubscriptionService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly notifications: NotificationService,
  ) {}

  async list(principal: UserPrincipal, deploymentId: number, id: number, query: { first?: number; after?: string }) {
    // The cursor first: a bad one is the caller's mistake whether or not the notification exists.
    const after = decodeCursor(RECIPIENT_ORDER, query.after)?.id;
    const notification = await this.notifications.demand(principal, deploymentId, id, 'Read');
    let select = this.ctx.db.selectFrom('notification_recipient').selectAll().where('notification_id', '=', notification.id);
    if (after !== undefined) select = select.where('id', '<', after);
    const rows = await select
      .orderBy('id', 'desc')
      .limit(pageSize(query) + 1)
      .execute();
    return toPage(RECIPIENT_ORDER, rows, query, recipientView);
  }

  async add(principal: UserPrincipal, deploymentId: number, id: number, inputs: NotificationRecipientInput[]) {
    const notification = await this.notifications.demand(principal, deploymentId, id, 'Edit');
    const values = await parseRecipients(this.ctx.db, principal.accountId, inputs);
    const result = {
      createdRecipients: [] as NotificationRecipient[],
      updatedRecipients: [] as NotificationRecipient[],
      unchangedRecipients: [] as NotificationRecipient[],
    };
    await transaction(this.ctx.db, async (db) => {
      const existing = await db
        .selectFrom('notification_recipient')
        .selectAll()
        .where('notification_id', '=', notification.id)
        .where(
          'recipient_key',
          'in',
          values.map((v) => v.recipient_key),
        )
        .forUpdate()
        .execute();
      const byKey = new Map(existing.map((row) => [row.recipient_key, row]));
      const fresh = values.filter((v) => !byKey.has(v.recipient_key));
      if (fresh.length) {
        const created = await db
          .insertInto('notification_recipient')
          .values(fresh.map((v) => ({ ...columns(v), account_id: principal.accountId, notification_id: notification.id })))
          .onConflict((oc) => oc.columns(['notification_id', 'recipient_key']).doNothing())
          .returningAll()
          .execute();
        result.createdRecipients.push(...created.map(recipientView));
      }
      for (const v of values) {
        const row = byKey.get(v.recipient_key);
        if (!row) continue;
        const changed = MUTABLE.filter((field) => canonical(row[field] ?? null) !== canonical(v[field] ?? null));
        if (!changed.length) {
          result.unchangedRecipients.push(recipientView(row));
          continue;
        }
        const updated = await db
          .updateTable('notification_recipient')
          .set({ ...columns(v), updated_at: new Date() })
          .where('id', '=', row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        result.updatedRecipients.push(recipientView(updated));
      }
    });
    return result;
  }

  async remove(principal: UserPrincipal, deploymentId: number, id: number, entries: RemoveNotificationRecipientInput[]): Promise<void> {
    const notification = await this.notifications.demand(principal, deploymentId, id, 'Edit');
    entries.forEach((entry, i) => checkRemoval(entry, `recipients[${i}]`));
    const rows = await this.ctx.db
      .selectFrom('notification_recipient')
      .selectAll()
      .where('notification_id', '=', notification.id)
      .execute();
    const gone = new Set<number>();
    entries.forEach((entry) => {
      for (const row of rows) if (removalMatches(entry, row)) gone.add(row.id);
    });
    if (gone.size)
      await this.ctx.db
        .deleteFrom('notification_recipient')
        .where('id', 'in', [...gone])
        .execute();
  }
}

function columns(v: RecipientValues) {
  return {
    type: v.type,
    recipient_key: v.recipient_key,
    user_id: v.user_id,
    email: v.email,
    embed_tenant_name: v.embed_tenant_name,
    external_id: v.external_id,
    groups: v.groups === null ? null : JSON.stringify(v.groups),
    user_attributes: v.user_attributes === null ? null : JSON.stringify(v.user_attributes),
    security_context: v.security_context === null ? null : JSON.stringify(v.security_context),
    channel_id: v.channel_id,
    channel_name: v.channel_name,
  };
}

/** JSON with object keys sorted: jsonb hands keys back in its own order, so a plain stringify would see a change where none is. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
