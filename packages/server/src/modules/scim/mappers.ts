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

/**
 * The core User of section 2.2 (RFC 7643 §4.1) and its enterprise extension, as the client sent
 * them. Absent values are omitted, never null. `schemas` names the extension only when the user
 * has some of its attributes (RFC 7643 §3).
 */
export function toScimUser(row: AppUserRow, ctx: Meta, groups?: Array<{ uuid: string; name: string }>): ScimResource {
  const extra = (row.scim_attributes ?? {}) as Record<string, unknown>;
  const { name: extraName, [ENTERPRISE_KEY]: enterprise, ...rest } = extra;
  const name = compact({ ...(extraName as Record<string, unknown> | undefined), givenName: row.given_name, familyName: row.family_name });
  const hasEnterprise = isNonEmptyObject(enterprise);
  return compact({
    schemas: hasEnterprise ? [URN.user, URN.enterpriseUser] : [URN.user],
    id: row.uuid,
    externalId: row.external_id,
    userName: userNameOf(row),
    name: Object.keys(name).length > 0 ? name : null,
    displayName: row.display_name,
    ...rest,
    emails: emailsOf(row),
    active: row.active,
    groups: groups?.map((g) => ({ value: g.uuid, $ref: `${ctx.base}/Groups/${g.uuid}`, display: g.name, type: 'direct' })),
    [URN.enterpriseUser]: hasEnterprise ? enterprise : null,
    meta: {
      resourceType: 'User',
      created: toIso(row.created_at),
      lastModified: toIso(row.updated_at),
      location: `${ctx.base}/Users/${row.uuid}`,
      version: etagOf(row.version),
    },
  }) as ScimResource;
}

/** Where the enterprise extension lives inside `scim_attributes`. */
export const ENTERPRISE_KEY = 'enterprise';

export const userNameOf = (row: Pick<AppUserRow, 'user_name' | 'email'>): string => row.user_name ?? row.email ?? '';

/**
 * The addresses a user presents: those a SCIM client stored. A user the platform API created,
 * which no SCIM client has written yet, presents its own sign-in address, which an admin gave.
 */
export function emailsOf(row: Pick<AppUserRow, 'email' | 'emails' | 'user_name'>): StoredEmail[] | null {
  if (row.emails && row.emails.length > 0) return row.emails;
  if (row.user_name === null && row.email !== null) return [{ value: row.email, type: 'work', primary: true }];
  return null;
}

function isNonEmptyObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
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
      display: m.display_name ?? m.user_name ?? m.email ?? undefined,
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
