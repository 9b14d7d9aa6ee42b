import type { AppUserRow, StoredEmail } from '../../store/schema.js';
import { isValidEmail, type UserChanges } from '../users/service.js';
import { resourceTypes } from './attributes.js';
import { invalidValue, URN } from './errors.js';
import { emailsOf, ENTERPRISE_KEY, toScimUser, userNameOf, type Meta } from './mappers.js';
import type { Doc, PatchTarget } from './patch.js';

/**
 * A SCIM User as the patch engine edits it: the resource's writable attributes, with the enterprise
 * extension under its URN. See attributes.ts for the schema.
 */
export interface UserDoc extends Doc {
  userName?: string;
  name?: Record<string, string>;
  displayName?: string;
  active?: boolean;
  externalId?: string;
  emails?: StoredEmail[];
}

export const MAX_USER_NAME_LENGTH = 256;

/** Attributes with a column of their own; every other one is kept in scim_attributes as sent. */
const COLUMNS = new Set(['userName', 'name', 'displayName', 'active', 'externalId', 'emails']);

/** A client that echoes a resource it read (GET, edit, PUT) restates its meta: that is not a change. */
export function userPatchTarget(row: AppUserRow | undefined, ctx: Meta): PatchTarget {
  return {
    type: resourceTypes.User,
    id: row?.uuid ?? '',
    meta: row ? (toScimUser(row, ctx).meta as Record<string, unknown>) : { resourceType: 'User' },
    unremovable: ['active'],
  };
}

export function userDocOf(row: AppUserRow): UserDoc {
  const { name: extraName, [ENTERPRISE_KEY]: enterprise, ...rest } = structuredClone(row.scim_attributes ?? {}) as Record<string, unknown>;
  const name: Record<string, string> = { ...(extraName as Record<string, string> | undefined) };
  if (row.given_name !== null) name.givenName = row.given_name;
  if (row.family_name !== null) name.familyName = row.family_name;
  const doc: UserDoc = { ...rest, userName: userNameOf(row), active: row.active };
  if (Object.keys(name).length > 0) doc.name = name;
  const emails = emailsOf(row);
  if (emails) doc.emails = structuredClone(emails);
  if (row.display_name !== null) doc.displayName = row.display_name;
  if (row.external_id !== null) doc.externalId = row.external_id;
  if (enterprise && typeof enterprise === 'object') doc[URN.enterpriseUser] = enterprise;
  return doc;
}

export type UserFields = Required<Omit<UserChanges, 'role' | 'userName'>> & { userName: string };

/** The internal user's fields a document asks for; every one, for a create. */
export function userFieldsOf(doc: UserDoc): UserFields {
  // RFC 7643 §4.1.1: any non-empty string; only the sign-in address below must be an address.
  if (typeof doc.userName !== 'string' || doc.userName.trim() === '') throw invalidValue('userName is required and must not be empty');
  // The unique index holds it: PostgreSQL refuses index entries past about 2,700 bytes.
  if (doc.userName.length > MAX_USER_NAME_LENGTH) throw invalidValue(`userName must be at most ${MAX_USER_NAME_LENGTH} characters`);
  const emails = doc.emails ?? [];
  const { givenName, familyName, ...nameExtras } = doc.name ?? {};
  const extras: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (!COLUMNS.has(key) && key !== URN.enterpriseUser) extras[key] = value;
  }
  if (Object.keys(nameExtras).length > 0) extras.name = nameExtras;
  const enterprise = doc[URN.enterpriseUser];
  if (enterprise && typeof enterprise === 'object' && Object.keys(enterprise).length > 0) extras[ENTERPRISE_KEY] = enterprise;
  return {
    userName: doc.userName,
    email: signInAddress(doc.userName, emails),
    givenName: givenName ?? null,
    familyName: familyName ?? null,
    displayName: doc.displayName ?? null,
    externalId: doc.externalId ?? null,
    active: doc.active ?? true,
    emails: emails.length > 0 ? emails : null,
    scimAttributes: Object.keys(extras).length > 0 ? extras : null,
  };
}

/**
 * Where an address is needed (signing in, invites): the primary address, else the first one sent,
 * else userName when it is itself an address. A user provisioned with none of these has none.
 */
export function signInAddress(userName: string, emails: StoredEmail[]): string | null {
  const chosen = emails.find((e) => e.primary === true) ?? emails[0];
  if (chosen) return chosen.value;
  return isValidEmail(userName.trim()) ? userName.trim() : null;
}

/** Only what differs from the row, so a request that changes nothing leaves the version alone. */
export function userChanges(row: AppUserRow, doc: UserDoc): UserChanges {
  const next = userFieldsOf(doc);
  const changes: UserChanges = {};
  if (next.userName !== userNameOf(row)) changes.userName = next.userName;
  if (next.email !== row.email) changes.email = next.email;
  if (next.givenName !== row.given_name) changes.givenName = next.givenName;
  if (next.familyName !== row.family_name) changes.familyName = next.familyName;
  if (next.displayName !== row.display_name) changes.displayName = next.displayName;
  if (next.externalId !== row.external_id) changes.externalId = next.externalId;
  if (next.active !== row.active) changes.active = next.active;
  if (canonical(next.emails ?? []) !== canonical(emailsOf(row) ?? [])) changes.emails = next.emails;
  if (canonical(next.scimAttributes) !== canonical(row.scim_attributes ?? null)) changes.scimAttributes = next.scimAttributes;
  // A platform user presents its own address until SCIM writes it; from then on what SCIM sent is
  // all there is (a later `remove emails` must leave none), which a stored userName marks.
  if (row.user_name === null && Object.keys(changes).length > 0) {
    changes.userName = next.userName;
    changes.emails = next.emails;
  }
  return changes;
}

/** JSON with object keys sorted: jsonb hands keys back in its own order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
