import type { AppUserRow, StoredEmail } from '../../store/schema.js';
import type { UserChanges } from '../users/service.js';
import { resourceTypes } from './attributes.js';
import { invalidValue } from './errors.js';
import { derivedEmails, emailsOf, toScimUser, type Meta } from './mappers.js';
import type { Doc, PatchTarget } from './patch.js';

/** The writable part of a SCIM User, as the patch engine edits it; see attributes.ts for the schema. */
export interface UserDoc extends Doc {
  userName?: string;
  name?: { givenName?: string; familyName?: string };
  displayName?: string;
  active?: boolean;
  externalId?: string;
  emails?: StoredEmail[];
}

const stored = {
  userName: true, name: ['givenName', 'familyName'], displayName: true, active: true, externalId: true,
  emails: ['value', 'display', 'type', 'primary'],
} as const;


/** A client that echoes a resource it read (GET, edit, PUT) restates its meta: that is not a change. */
export function userPatchTarget(row: AppUserRow | undefined, ctx: Meta): PatchTarget {
  return {
    type: resourceTypes.User,
    id: row?.uuid ?? '',
    meta: row ? (toScimUser(row, ctx).meta as Record<string, unknown>) : { resourceType: 'User' },
    stored: stored as unknown as PatchTarget['stored'],
  };
}

export function userDocOf(row: AppUserRow): UserDoc {
  const name: UserDoc['name'] = {};
  if (row.given_name !== null) name.givenName = row.given_name;
  if (row.family_name !== null) name.familyName = row.family_name;
  // The derived address too, so `emails[type eq "work"].value` finds it on a user created without emails.
  const doc: UserDoc = { userName: row.email, name, active: row.active, emails: structuredClone(emailsOf(row)) };
  if (row.display_name !== null) doc.displayName = row.display_name;
  if (row.external_id !== null) doc.externalId = row.external_id;
  return doc;
}

/** The internal user's fields a document asks for; every one, for a create. */
export function userFieldsOf(doc: UserDoc): Required<Omit<UserChanges, 'role'>> {
  if (typeof doc.userName !== 'string' || doc.userName.trim() === '') throw invalidValue('userName is required');
  return {
    email: doc.userName,
    givenName: doc.name?.givenName ?? null,
    familyName: doc.name?.familyName ?? null,
    displayName: doc.displayName ?? null,
    externalId: doc.externalId ?? null,
    active: doc.active ?? true,
    emails: storedEmails(doc, doc.userName),
  };
}

/**
 * Null (present the derived address) when the document's addresses are exactly what a user
 * without stored ones shows: an unchanged echo must not pin the old userName as an address.
 */
function storedEmails(doc: UserDoc, userName: string): StoredEmail[] | null {
  const emails = doc.emails ?? [];
  if (emails.length === 0 || sameEmails(emails, derivedEmails(userName))) return null;
  return emails;
}

/** Only what differs from the row, so a request that changes nothing leaves the version alone. */
export function userChanges(row: AppUserRow, doc: UserDoc): UserChanges {
  const next = userFieldsOf(doc);
  const changes: UserChanges = {};
  if (next.email !== row.email) changes.email = next.email;
  if (next.givenName !== row.given_name) changes.givenName = next.givenName;
  if (next.familyName !== row.family_name) changes.familyName = next.familyName;
  if (next.displayName !== row.display_name) changes.displayName = next.displayName;
  if (next.externalId !== row.external_id) changes.externalId = next.externalId;
  if (next.active !== row.active) changes.active = next.active;
  // An echo of the address derived from the old userName is not a request to store it.
  const echo = row.emails === null || row.emails.length === 0 ? sameEmails(doc.emails ?? [], derivedEmails(row.email)) : false;
  const wanted = echo ? null : next.emails;
  if (!sameEmails(wanted ?? [], row.emails ?? [])) changes.emails = wanted;
  return changes;
}

function sameEmails(a: StoredEmail[], b: StoredEmail[]): boolean {
  const canon = (list: StoredEmail[]) => JSON.stringify(list.map((e) => [e.value, e.type ?? null, e.primary ?? null, e.display ?? null]));
  return canon(a) === canon(b);
}
