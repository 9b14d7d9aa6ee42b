import { toIso } from '../../http/common-schemas.js';
import type { AppUserRow, StoredEmail, UserGroupRow } from '../../store/schema.js';
import { URN } from './errors.js';
import type { MemberRow } from './query-repo.js';

export type ScimResource = Record<string, unknown> & { id: string; schemas: string[] };

/** meta.version is a weak ETag over the row's version counter, bumped on every change. */
export const etagOf = (version: number) => `W/"${version}"`;

export interface Meta {
  /** `{base_url}/api/scim/v2`, as the caller addressed it. */
  base: string;
}

/** The core User of section 2.2 (RFC 7643 §4.1). Absent values are omitted, never null. */
export function toScimUser(row: AppUserRow, ctx: Meta): ScimResource {
  const name = compact({
    givenName: row.given_name,
    familyName: row.family_name,
    formatted: [row.given_name, row.family_name].filter(Boolean).join(' ') || null,
  });
  return compact({
    schemas: [URN.user],
    id: row.uuid,
    externalId: row.external_id,
    userName: row.email,
    name: Object.keys(name).length > 0 ? name : null,
    displayName: row.display_name,
    emails: emailsOf(row),
    active: row.active,
    meta: {
      resourceType: 'User',
      created: toIso(row.created_at),
      lastModified: toIso(row.updated_at),
      location: `${ctx.base}/Users/${row.uuid}`,
      version: etagOf(row.version),
    },
  }) as ScimResource;
}

/** What a user with no stored addresses presents: userName as the primary work address. */
export const derivedEmails = (userName: string): StoredEmail[] => [{ value: userName, type: 'work', primary: true }];

export function emailsOf(row: Pick<AppUserRow, 'email' | 'emails'>): StoredEmail[] {
  return row.emails && row.emails.length > 0 ? row.emails : derivedEmails(row.email);
}

/** RFC 7643 §4.2. `members` is left out when the caller excluded it, so it is never loaded. */
export function toScimGroup(row: UserGroupRow, members: MemberRow[] | undefined, ctx: Meta): ScimResource {
  return compact({
    schemas: [URN.group],
    id: row.uuid,
    externalId: row.external_id,
    displayName: row.name,
    members: members?.map((m) => ({
      value: m.uuid,
      $ref: `${ctx.base}/Users/${m.uuid}`,
      display: m.display_name ?? m.email,
      type: 'User',
    })),
    meta: {
      resourceType: 'Group',
      created: toIso(row.created_at),
      lastModified: toIso(row.updated_at),
      location: `${ctx.base}/Groups/${row.uuid}`,
      version: etagOf(row.version),
    },
  }) as ScimResource;
}

function compact(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== null && v !== undefined));
}
