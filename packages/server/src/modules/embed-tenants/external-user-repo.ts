import { sql } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { ExternalUserRow } from '../../store/schema.js';

/**
 * Which catalog a membership or value belongs to: the account's tenant-wide groups and attributes
 * (read-only mode, provisioning's `groups`), or the embed tenant's own (creator mode, `tenantGroups`).
 */
export type Catalog = 'account' | 'tenant';

const tables = {
  account: {
    members: 'external_user_group', groupId: 'group_id', groups: 'user_group',
    values: 'external_user_attribute_value', attributeId: 'attribute_id', attributes: 'user_attribute',
  },
  tenant: {
    members: 'external_user_tenant_group', groupId: 'embed_group_id', groups: 'embed_group',
    values: 'external_user_tenant_attribute_value', attributeId: 'embed_attribute_id', attributes: 'embed_user_attribute',
  },
} as const;

export interface ProfileWrite {
  email?: string | undefined;
  displayName?: string | undefined;
  picture?: string | undefined;
}

/** external_user with its memberships and values in both catalogs; every query is bounded by the account. */
export class ExternalUserRepo {
  constructor(private readonly db: Executor) {}

  /**
   * Creates the user or takes its row lock, in one statement: concurrent calls for one new
   * externalId queue on the lock, so each applies its whole change after the previous one's.
   * Omitted profile fields keep their stored values (2.5 rule 3).
   */
  async upsert(accountId: number, tenantId: number, externalId: string, profile: ProfileWrite) {
    const row = await sql<ExternalUserRow & { inserted: boolean }>`
      insert into external_user (account_id, embed_tenant_id, external_id, email, display_name, picture)
      values (${accountId}, ${tenantId}, ${externalId}, ${profile.email ?? null}, ${profile.displayName ?? null}, ${profile.picture ?? null})
      on conflict (embed_tenant_id, external_id) do update set
        email = coalesce(excluded.email, external_user.email),
        display_name = coalesce(excluded.display_name, external_user.display_name),
        picture = coalesce(excluded.picture, external_user.picture),
        updated_at = now()
      returning *, (xmax = 0) as inserted`.execute(this.db);
    return row.rows[0]!;
  }

  /**
   * Takes one of the account's external-user slots (section 8), or returns false when none is
   * left. The counter row's lock makes concurrent creators of new users count one after another.
   */
  async takeSlot(accountId: number, limit: number): Promise<boolean> {
    const result = await sql<{ n: number }>`
      insert into embed_account (account_id, external_user_count) values (${accountId}, 1)
      on conflict (account_id) do update set external_user_count = embed_account.external_user_count + 1
        where embed_account.external_user_count < ${limit}
      returning external_user_count as n`.execute(this.db);
    return result.rows.length > 0;
  }

  /** One statement: the delete and the insert touch disjoint rows, so they can share a snapshot. */
  async replaceGroups(catalog: Catalog, accountId: number, userId: number, groupIds: number[]) {
    const t = tables[catalog];
    const keep = sql`array[${sql.join([0, ...groupIds])}]::integer[]`;
    await sql`
      with gone as (
        delete from ${sql.table(t.members)}
        where account_id = ${accountId} and external_user_id = ${userId} and ${sql.ref(t.groupId)} <> all(${keep})
      )
      insert into ${sql.table(t.members)} (external_user_id, ${sql.ref(t.groupId)}, account_id)
      select ${userId}, g, ${accountId} from unnest(${keep}) as g where g <> 0
      on conflict do nothing`.execute(this.db);
  }

  /** `null` clears a value (2.6); the other supplied names are overwritten, the rest kept. One statement. */
  async setValues(catalog: Catalog, accountId: number, userId: number, values: Array<{ attributeId: number; value: unknown }>) {
    if (values.length === 0) return;
    const t = tables[catalog];
    const cleared = sql`array[${sql.join([0, ...values.filter((v) => v.value === null).map((v) => v.attributeId)])}]::integer[]`;
    const kept = values.filter((v) => v.value !== null);
    const rows = kept.map((v) => sql`(${userId}, ${v.attributeId}, ${accountId}, ${JSON.stringify(v.value)}::jsonb)`);
    const clear = sql`delete from ${sql.table(t.values)}
      where account_id = ${accountId} and external_user_id = ${userId} and ${sql.ref(t.attributeId)} = any(${cleared})`;
    if (rows.length === 0) {
      await clear.execute(this.db);
      return;
    }
    await sql`
      with gone as (${clear})
      insert into ${sql.table(t.values)} (external_user_id, ${sql.ref(t.attributeId)}, account_id, value)
      values ${sql.join(rows)}
      on conflict (external_user_id, ${sql.ref(t.attributeId)}) do update set value = excluded.value`.execute(this.db);
  }

  /** Group names per user, ordered by name. */
  async groupNames(catalog: Catalog, accountId: number, userIds: number[]): Promise<Map<number, string[]>> {
    const byUser = new Map<number, string[]>();
    if (userIds.length === 0) return byUser;
    const t = tables[catalog];
    const { rows } = await sql<{ user_id: number; name: string }>`
      select m.external_user_id as user_id, g.name from ${sql.table(t.members)} m
      join ${sql.table(t.groups)} g on g.id = m.${sql.ref(t.groupId)}
      where m.account_id = ${accountId} and m.external_user_id in (${sql.join(userIds)})
      order by g.name`.execute(this.db);
    for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.name]);
    return byUser;
  }

  /** Attribute values per user, ordered by attribute name. */
  async attributeValues(catalog: Catalog, accountId: number, userIds: number[]): Promise<Map<number, Array<{ name: string; value: unknown }>>> {
    const byUser = new Map<number, Array<{ name: string; value: unknown }>>();
    if (userIds.length === 0) return byUser;
    const t = tables[catalog];
    const { rows } = await sql<{ user_id: number; name: string; value: unknown }>`
      select v.external_user_id as user_id, a.name, v.value from ${sql.table(t.values)} v
      join ${sql.table(t.attributes)} a on a.id = v.${sql.ref(t.attributeId)}
      where v.account_id = ${accountId} and v.external_user_id in (${sql.join(userIds)})
      order by a.name`.execute(this.db);
    for (const row of rows) {
      byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), { name: row.name, value: row.value }]);
    }
    return byUser;
  }

  find(accountId: number, tenantId: number, externalId: string) {
    return this.db
      .selectFrom('external_user')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('embed_tenant_id', '=', tenantId)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
  }

  findById(accountId: number, id: number) {
    return this.db.selectFrom('external_user').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  list(accountId: number, tenantId: number, after: number | undefined, limit: number) {
    return this.db
      .selectFrom('external_user')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('embed_tenant_id', '=', tenantId)
      .$if(after !== undefined, (q) => q.where('id', '>', after!))
      .orderBy('id')
      .limit(limit)
      .execute();
  }
}
