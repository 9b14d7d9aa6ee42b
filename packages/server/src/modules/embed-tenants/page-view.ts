import { sql } from 'kysely';
import type { Executor } from '../../store/executor.js';
import { PREPARED } from '../../store/prepared.js';
import { INSERT_SESSION } from '../embed/public.js';
import { catalogTables, type Catalog, type ProfileWrite } from './external-user-repo.js';

/** A page view of a known external user: everything generate-session writes, names already resolved. */
export interface ExistingUserSession {
  accountId: number;
  tenantId: number;
  externalId: string;
  profile: ProfileWrite;
  catalog: Catalog;
  /** Replaces the memberships when present (2.7); `groupNames` are then the claim, sorted. */
  groups?: { ids: number[]; names: string[] } | undefined;
  values: Array<{ attributeId: number; value: unknown }>;
  /** The session's claims apart from `user`, `groups` and `userAttributes`, which this statement adds. */
  claims: object;
  session: {
    hash: string;
    apiKeyId: number | null;
    deploymentId: number;
    creatorMode: boolean;
    showDashboardChat: boolean | null;
    exchangeBy: Date;
  };
}

/**
 * The common case of generate-session in one statement, kept beside the external-user writers
 * whose invariant it relies on, so without a transaction: the user's row
 * is updated only if it is still the version this statement's snapshot saw (same xmin). Every
 * writer of a user's memberships and values updates that row first, so an unchanged version
 * means the snapshot holds the user's latest state (an ephemeral user is left to the locking path), and replacing, reading it back for the claims
 * and inserting the session in one snapshot is exact. A new user, or one another request changed
 * meanwhile, updates nothing, writes nothing and returns false: the caller takes the locking path.
 * Prepared, because planning this statement costs as much as running it.
 */
export async function mintForExistingUser(db: Executor, s: ExistingUserSession): Promise<boolean> {
  const t = catalogTables[s.catalog];
  const named = s.values.map((v) => v.attributeId);
  const groupIds = s.groups?.ids ?? [];
  const groupsClaim = s.groups
    ? sql`${JSON.stringify(s.groups.names)}::jsonb`
    : sql`(select coalesce(jsonb_agg(g.name order by g.name collate "C"), '[]'::jsonb) from ${sql.table(t.members)} m
        join ${sql.table(t.groups)} g on g.id = m.${sql.ref(t.groupId)} where m.external_user_id = (select id from u))`;
  const { rows } = await sql<{ id: number }>`${sql.raw(PREPARED)}
    with seen as (
      select id, xmin from external_user
      where account_id = ${s.accountId} and embed_tenant_id = ${s.tenantId} and external_id = ${s.externalId}
        and expires_at is null
    ), u as (
      update external_user x set
        email = coalesce(${s.profile.email ?? null}, x.email),
        display_name = coalesce(${s.profile.displayName ?? null}, x.display_name),
        picture = coalesce(${s.profile.picture ?? null}, x.picture),
        updated_at = now()
      from seen where x.id = seen.id and x.xmin = seen.xmin
      returning x.*
    ), g_gone as (
      delete from ${sql.table(t.members)} m using u
      where ${s.groups !== undefined}::boolean and m.external_user_id = u.id and m.${sql.ref(t.groupId)} <> all(${groupIds}::integer[])
    ), g_new as (
      insert into ${sql.table(t.members)} (external_user_id, ${sql.ref(t.groupId)}, account_id)
      select u.id, g, ${s.accountId} from u, unnest(${groupIds}::integer[]) as g on conflict do nothing
    ), v_want as (
      select u.id as u, w.a, w.v from u, unnest(${named}::integer[],
        ${s.values.map((v) => (v.value === null ? null : JSON.stringify(v.value)))}::text[]) as w(a, v)
    ), v_gone as (
      delete from ${sql.table(t.values)} x using v_want w
      where w.v is null and x.external_user_id = w.u and x.${sql.ref(t.attributeId)} = w.a
    ), v_new as (
      insert into ${sql.table(t.values)} (external_user_id, ${sql.ref(t.attributeId)}, account_id, value)
      select u, a, ${s.accountId}, v::jsonb from v_want where v is not null
      on conflict (external_user_id, ${sql.ref(t.attributeId)}) do update set value = excluded.value
        where ${sql.table(t.values)}.value is distinct from excluded.value
    ), final_values as (
      select a.name, x.value from ${sql.table(t.values)} x join ${sql.table(t.attributes)} a on a.id = x.${sql.ref(t.attributeId)}
      where x.external_user_id = (select id from u) and x.${sql.ref(t.attributeId)} <> all(${named}::integer[])
      union all
      select a.name, w.v::jsonb from v_want w join ${sql.table(t.attributes)} a on a.id = w.a where w.v is not null
    )
    ${INSERT_SESSION}
    select ${s.accountId}::integer, ${s.session.hash}::text, ${s.session.apiKeyId}::integer, ${s.session.deploymentId}::integer,
      ${s.tenantId}::integer, u.id, null::integer, u.external_id, ${s.session.creatorMode}::boolean, ${s.session.showDashboardChat}::boolean,
      ${JSON.stringify(s.claims)}::jsonb || jsonb_build_object(
        'user', jsonb_build_object('type', 'external', 'externalId', u.external_id, 'email', u.email,
          'userProfile', jsonb_build_object('displayName', u.display_name, 'picture', u.picture)),
        'groups', ${groupsClaim},
        'userAttributes', (select coalesce(jsonb_object_agg(name, value), '{}'::jsonb) from final_values)),
      ${s.session.exchangeBy}::timestamptz
    from u
    returning id`.execute(db);
  return rows.length > 0;
}
