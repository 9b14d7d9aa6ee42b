import type { AppUserRow } from '../../store/schema.js';
import type { UserChanges } from '../users/service.js';
import { resourceTypes } from './attributes.js';
import { invalidValue } from './errors.js';
import { toScimUser, type Meta } from './mappers.js';
import type { Doc, PatchTarget } from './patch.js';

/** The writable part of a SCIM User, as the patch engine edits it; see attributes.ts for the schema. */
export interface UserDoc extends Doc {
  userName?: string;
  name?: { givenName?: string; familyName?: string };
  displayName?: string;
  active?: boolean;
  externalId?: string;
}

const stored = { userName: true, name: ['givenName', 'familyName'], displayName: true, active: true, externalId: true } as const;

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
  const doc: UserDoc = { userName: row.email, name, active: row.active };
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
  };
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
  return changes;
}
