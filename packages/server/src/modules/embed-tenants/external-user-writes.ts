import { sql } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { ExternalUserRow } from '../../store/schema.js';
import { catalogTables, type Catalog, type ProfileWrite } from './external-user-repo.js';

export interface ProfileRow extends ProfileWrite {
  externalId: string;
  /** A new user created ephemeral lives this long; an existing user's expiry is never changed by the upsert. */
  ttlSeconds?: number | undefined;
}

/** What the upsert returns: the row, whether it was created, and whether it was an ephemeral user already past its end. */
export type UpsertedUser = ExternalUserRow & { inserted: boolean; expired: boolean };

/** One catalog's part of a write: memberships to replace and values to set, for any number of users. */
export interface CatalogWrite {
  groups: Array<{ userId: number; groupIds: number[] }>;
  values: Array<{ userId: number; attributeId: number; value: unknown }>;
}

/**
 * Set-based writes of external users: a constant number of statements whatever the number of
 * users, so a session costs a few round trips and a bulk request of 1,000 entries a handful.
 */
export class ExternalUserWrites {
  constructor(private readonly db: Executor) {}

  /**
   * Creates the users or takes their row locks, in one statement; omitted profile fields keep
   * their stored values (2.5 rule 3). Concurrent calls for one new externalId queue on the lock,
   * so each applies its whole change after the previous one's. The externalIds must be distinct;
   * they are locked in sorted order so two bulk requests never wait on each other in a circle.
   */
  async upsert(accountId: number, tenantId: number, rows: ProfileRow[]): Promise<UpsertedUser[]> {
    if (rows.length === 0) return [];
    const sorted = [...rows].sort((a, b) => (a.externalId < b.externalId ? -1 : 1));
    const column = (pick: (r: ProfileRow) => string | undefined) => sorted.map((r) => pick(r) ?? null);
    // The update leaves expires_at alone, so RETURNING shows the expiry the row had before: the
    // caller decides from it whether an existing user is kept, ephemeral or already gone.
    const result = await sql<UpsertedUser>`
      insert into external_user (account_id, embed_tenant_id, external_id, email, display_name, picture, expires_at)
      select ${accountId}, ${tenantId}, x.e, x.m, x.d, x.p, now() + make_interval(secs => x.t) from unnest(
        ${column((r) => r.externalId)}::text[], ${column((r) => r.email)}::text[],
        ${column((r) => r.displayName)}::text[], ${column((r) => r.picture)}::text[],
        ${sorted.map((r) => r.ttlSeconds ?? null)}::integer[]) with ordinality as x(e, m, d, p, t, n)
      order by x.n
      on conflict (embed_tenant_id, external_id) do update set
        email = coalesce(excluded.email, external_user.email),
        display_name = coalesce(excluded.display_name, external_user.display_name),
        picture = coalesce(excluded.picture, external_user.picture),
        updated_at = now()
      returning *, (xmax = 0) as inserted, (not (xmax = 0) and expires_at <= now()) as expired`.execute(this.db);
    return result.rows;
  }

  /**
   * Users found past their end by an upsert are gone: removed with their memberships and values,
   * then created afresh from the same rows, as if they had never existed.
   */
  async recreateExpired(accountId: number, tenantId: number, rows: ProfileRow[], upserted: UpsertedUser[]): Promise<UpsertedUser[]> {
    const expired = upserted.filter((u) => u.expired);
    if (expired.length === 0) return upserted;
    await this.deleteInserted(
      accountId,
      expired.map((u) => u.id),
    );
    const again = new Set(expired.map((u) => u.external_id));
    const fresh = new Map(
      (
        await this.upsert(
          accountId,
          tenantId,
          rows.filter((r) => again.has(r.externalId)),
        )
      ).map((u) => [u.external_id, u]),
    );
    return upserted.map((u) => fresh.get(u.external_id) ?? u);
  }

  /** A kept user from now on (null), or an ephemeral one until `ttlSeconds` from now. */
  async setExpiry(accountId: number, ids: number[], ttlSeconds: number | null): Promise<Date | null> {
    if (ids.length === 0) return null;
    const { rows } = await sql<{ expires_at: Date | null }>`
      update external_user set expires_at = case when ${ttlSeconds}::integer is null then null
        else now() + make_interval(secs => ${ttlSeconds}::integer) end
      where account_id = ${accountId} and id = any(${ids}::integer[])
      returning expires_at`.execute(this.db);
    return rows[0]?.expires_at ?? null;
  }

  /**
   * Takes up to `wanted` of the account's external-user slots (section 8) and returns how many it
   * got. The counter row stays locked until commit, so concurrent creators count one after another.
   */
  async takeSlots(accountId: number, wanted: number, limit: number): Promise<number> {
    if (wanted === 0) return 0;
    if (wanted === 1) {
      const one = await sql`
        insert into embed_account (account_id, external_user_count) values (${accountId}, 1)
        on conflict (account_id) do update set external_user_count = embed_account.external_user_count + 1
          where embed_account.external_user_count < ${limit}
        returning 1`.execute(this.db);
      return one.rows.length;
    }
    // Locks the row and reads its latest count (an upsert sees past its snapshot), then adds.
    const locked = await sql<{ n: number }>`
      insert into embed_account (account_id, external_user_count) values (${accountId}, 0)
      on conflict (account_id) do update set external_user_count = embed_account.external_user_count
      returning external_user_count as n`.execute(this.db);
    const granted = Math.max(0, Math.min(wanted, limit - locked.rows[0]!.n));
    if (granted > 0) {
      await sql`update embed_account set external_user_count = external_user_count + ${granted}
        where account_id = ${accountId}`.execute(this.db);
    }
    return granted;
  }

  /** Undoes the creation of users this transaction inserted and could not give a slot. */
  async deleteInserted(accountId: number, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await sql`delete from external_user where account_id = ${accountId} and id = any(${ids}::integer[])`.execute(this.db);
  }

  /**
   * One statement: memberships replaced (2.7) and values set or, for `null`, cleared (2.6), then,
   * for `readUserId`, the values of attributes this write did not name and, unless `readGroups` is
   * false, the user's group names. The read shares the statement's snapshot, taken after the
   * caller locked the user, so it sees every earlier writer and none of this statement's writes.
   */
  async apply(catalog: Catalog, accountId: number, write: CatalogWrite, read?: { userId: number; groups: boolean }) {
    const t = catalogTables[catalog];
    const groupUsers = write.groups.map((g) => g.userId);
    const pairs = write.groups.flatMap((g) => g.groupIds.map((id) => [g.userId, id] as const));
    const named = write.values.filter((v) => v.userId === read?.userId).map((v) => v.attributeId);
    const { rows } = await sql<{ kind: 'value' | 'group'; name: string; value: unknown }>`
      with g_want as (
        select * from unnest(${pairs.map((p) => p[0])}::integer[], ${pairs.map((p) => p[1])}::integer[]) as w(u, g)
      ), g_gone as (
        delete from ${sql.table(t.members)} m
        where m.account_id = ${accountId} and m.external_user_id = any(${groupUsers}::integer[])
          and not exists (select 1 from g_want w where w.u = m.external_user_id and w.g = m.${sql.ref(t.groupId)})
      ), g_new as (
        insert into ${sql.table(t.members)} (external_user_id, ${sql.ref(t.groupId)}, account_id)
        select u, g, ${accountId} from g_want on conflict do nothing
      ), v_want as (
        select * from unnest(
          ${write.values.map((v) => v.userId)}::integer[], ${write.values.map((v) => v.attributeId)}::integer[],
          ${write.values.map((v) => (v.value === null ? null : JSON.stringify(v.value)))}::text[]) as w(u, a, v)
      ), v_gone as (
        delete from ${sql.table(t.values)} x using v_want w
        where x.account_id = ${accountId} and w.v is null and x.external_user_id = w.u and x.${sql.ref(t.attributeId)} = w.a
      ), v_new as (
        insert into ${sql.table(t.values)} (external_user_id, ${sql.ref(t.attributeId)}, account_id, value)
        select u, a, ${accountId}, v::jsonb from v_want where v is not null
        on conflict (external_user_id, ${sql.ref(t.attributeId)}) do update set value = excluded.value
      )
      select 'value' as kind, a.name, x.value from ${sql.table(t.values)} x join ${sql.table(t.attributes)} a on a.id = x.${sql.ref(t.attributeId)}
      where x.account_id = ${accountId} and x.external_user_id = ${read?.userId ?? 0} and x.${sql.ref(t.attributeId)} <> all(${named}::integer[])
      union all
      select 'group', g.name, null from ${sql.table(t.members)} m join ${sql.table(t.groups)} g on g.id = m.${sql.ref(t.groupId)}
      where ${read?.groups ?? false} and m.account_id = ${accountId} and m.external_user_id = ${read?.userId ?? 0}`.execute(this.db);
    return {
      values: rows.filter((r) => r.kind === 'value').map((r) => ({ name: r.name, value: r.value })),
      groups: rows.filter((r) => r.kind === 'group').map((r) => r.name),
    };
  }
}
