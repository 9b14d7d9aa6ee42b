import { badRequest } from '../../http/errors.js';
import type { Executor } from '../../store/executor.js';
import type { NotificationRecipientRow } from '../../store/schema.js';
import { checkEmail, normaliseExternalId } from '../embed-tenants/public.js';
import { usersOfAccount } from '../users/public.js';
import type { NotificationRecipient, NotificationRecipientInput, RemoveNotificationRecipientInput } from './schemas.js';

/** A recipient as stored: its key says who it is, once per notification. */
export interface RecipientValues {
  type: 'USER' | 'EMBED_USER' | 'SLACK';
  recipient_key: string;
  user_id: number | null;
  email: string | null;
  embed_tenant_name: string | null;
  external_id: string | null;
  groups: string[] | null;
  user_attributes: { name: string; value: unknown }[] | null;
  security_context: Record<string, unknown> | null;
  channel_id: string | null;
  channel_name: string | null;
}

const FIELDS: Record<RecipientValues['type'], readonly (keyof NotificationRecipientInput)[]> = {
  USER: ['userId', 'email'],
  EMBED_USER: ['embedTenantName', 'externalId', 'email', 'groups', 'userAttributes', 'securityContext'],
  SLACK: ['channelId', 'channelName'],
};
const EMAIL_SHAPED = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Checks each entry and resolves USER entries to the account's users (by id or email, in one
 * query). Every problem names the entry (`recipients[3]`); entries naming the same recipient twice
 * are refused together, naming each.
 */
export async function parseRecipients(db: Executor, accountId: number, inputs: NotificationRecipientInput[]): Promise<RecipientValues[]> {
  const values = inputs.map((input, i) => shape(input, `recipients[${i}]`));
  const ids = values.filter((v) => v.type === 'USER' && v.user_id !== null).map((v) => v.user_id!);
  const emails = values.filter((v) => v.type === 'USER' && v.user_id === null).map((v) => v.email!.toLowerCase());
  const users =
    ids.length || emails.length
      ? await usersOfAccount(db, accountId)
          .select(['id', 'email', 'active'])
          .where((eb) =>
            eb.or([...(ids.length ? [eb('id', 'in', ids)] : []), ...(emails.length ? [eb(eb.fn('lower', ['email']), 'in', emails)] : [])]),
          )
          .execute()
      : [];
  values.forEach((v, i) => {
    if (v.type !== 'USER') return;
    const user = users.find((u) => (v.user_id !== null ? u.id === v.user_id : u.email?.toLowerCase() === v.email!.toLowerCase()));
    const who = v.user_id !== null ? `userId ${v.user_id}` : `email "${v.email}"`;
    if (!user) throw badRequest(`recipients[${i}]: no user of this account has ${who}`);
    if (!user.active) throw badRequest(`recipients[${i}]: the user with ${who} is deactivated`);
    if (!user.email) throw badRequest(`recipients[${i}]: the user with ${who} has no email address to send to`);
    v.user_id = user.id;
    v.email = user.email;
    v.recipient_key = `USER:${user.id}`;
  });
  const seen = new Map<string, number>();
  const duplicates: string[] = [];
  values.forEach((v, i) => {
    const first = seen.get(v.recipient_key);
    if (first === undefined) seen.set(v.recipient_key, i);
    else duplicates.push(`recipients[${i}] repeats recipients[${first}] (${label(v)})`);
  });
  if (duplicates.length) throw badRequest(`Duplicate recipients: ${duplicates.join('; ')}`);
  return values;
}

function shape(input: NotificationRecipientInput, at: string): RecipientValues {
  const allowed = FIELDS[input.type];
  for (const [field, value] of Object.entries(input)) {
    if (field !== 'type' && value !== null && value !== undefined && !allowed.includes(field as keyof NotificationRecipientInput)) {
      throw badRequest(`${at}: ${field} is not a field of a ${input.type} recipient (it takes ${allowed.join(', ')})`);
    }
  }
  const base = {
    type: input.type,
    user_id: null,
    email: null,
    embed_tenant_name: null,
    external_id: null,
    groups: null,
    user_attributes: null,
    security_context: null,
    channel_id: null,
    channel_name: null,
  };
  if (input.type === 'USER') {
    if ((input.userId == null) === (input.email == null)) throw badRequest(`${at}: a USER recipient needs userId or email, one of them`);
    const email = input.email == null ? null : within(() => checkEmail(input.email!), at);
    return { ...base, recipient_key: '', user_id: input.userId ?? null, email };
  }
  if (input.type === 'SLACK') {
    const channel = input.channelId?.trim() ?? '';
    if (!/^[A-Z0-9]{2,}$/i.test(channel))
      throw badRequest(`${at}: a SLACK recipient needs channelId, Slack's id of the channel (e.g. C0123456789)`);
    return { ...base, recipient_key: `SLACK:${channel}`, channel_id: channel, channel_name: input.channelName?.trim() || null };
  }
  const tenant = input.embedTenantName?.trim() ?? '';
  if (tenant === '') throw badRequest(`${at}: an EMBED_USER recipient needs embedTenantName`);
  if (input.externalId == null) throw badRequest(`${at}: an EMBED_USER recipient needs externalId`);
  const externalId = within(() => normaliseExternalId(input.externalId!), at);
  const email = input.email != null ? within(() => checkEmail(input.email!), at) : EMAIL_SHAPED.test(externalId) ? externalId : null;
  if (!email) throw badRequest(`${at}: EMBED_USER "${externalId}" has no email to send to: give email, or an email-shaped externalId`);
  const names = (input.userAttributes ?? []).map((a) => a.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw badRequest(`${at}: userAttributes names "${twice}" twice`);
  return {
    ...base,
    recipient_key: `EMBED_USER:${tenant}/${externalId}`,
    email,
    embed_tenant_name: tenant,
    external_id: externalId,
    groups: input.groups ? [...new Set(input.groups)].sort() : null,
    user_attributes: input.userAttributes ? [...input.userAttributes].sort((a, b) => a.name.localeCompare(b.name)) : null,
    security_context: input.securityContext ?? null,
  };
}

/** Prefixes a rule's message with the entry it is about. */
function within<T>(check: () => T, at: string): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof Error) error.message = `${at}: ${error.message}`;
    throw error;
  }
}

function label(v: RecipientValues): string {
  if (v.type === 'USER') return `USER ${v.user_id}`;
  if (v.type === 'SLACK') return `SLACK ${v.channel_id}`;
  return `EMBED_USER ${v.external_id} of ${v.embed_tenant_name}`;
}

/** Checks a removal entry before anything is removed: the id each type takes, and an embed user's tenant. */
export function checkRemoval(entry: RemoveNotificationRecipientInput, at: string): void {
  if (entry.type === 'USER' && typeof entry.id !== 'number') throw badRequest(`${at}: the id of a USER recipient is its userId, a number`);
  if (entry.type === 'EMBED_USER' && !entry.embedTenantName?.trim()) {
    throw badRequest(`${at}: removing an EMBED_USER recipient needs embedTenantName`);
  }
}

/** Whether a removal entry names the stored recipient; one naming nobody subscribed is no error (removal is idempotent). */
export function removalMatches(entry: RemoveNotificationRecipientInput, row: NotificationRecipientRow): boolean {
  if (row.type !== entry.type) return false;
  if (entry.type === 'USER') return row.user_id === entry.id;
  if (entry.type === 'SLACK') return row.channel_id === String(entry.id).trim();
  if (row.embed_tenant_name !== entry.embedTenantName?.trim()) return false;
  return typeof entry.id === 'number' ? row.id === entry.id : row.external_id === entry.id.trim().toLowerCase();
}

export function recipientView(row: NotificationRecipientRow | (RecipientValues & { id?: number })): NotificationRecipient {
  return {
    type: row.type as NotificationRecipient['type'],
    userId: row.user_id,
    email: row.email,
    embedUserId: row.type === 'EMBED_USER' ? ((row as { id?: number }).id ?? null) : null,
    embedTenantName: row.embed_tenant_name,
    externalId: row.external_id,
    groups: row.groups ?? null,
    userAttributes: row.user_attributes ?? null,
    securityContext: row.security_context ?? null,
    channelId: row.channel_id,
    channelName: row.channel_name,
  };
}
