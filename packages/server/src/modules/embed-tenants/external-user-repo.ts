import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { Executor } from '../../store/executor.js';
import { afterId } from '../../store/keyset.js';

/**
 * Which catalog a membership or value belongs to: the account's tenant-wide groups and attributes
 * (read-only mode, provisioning's `groups`), or the embed tenant's own (creator mode, `tenantGroups`).
 */
export type Catalog = 'account' | 'tenant';

export const catalogTables = {
  account: {
    members: 'external_user_group',
    groupId: 'group_id',
    groups: 'user_group',
    values: 'external_user_attribute_value',
    attributeId: 'attribute_id',
    attributes: 'user_attribute',
  },
  tenant: {
    members: 'external_user_tenant_group',
    groupId: 'embed_group_id',
    groups: 'embed_group',
    values: 'external_user_tenant_attribute_value',
    attributeId: 'embed_attribute_id',
    attributes: 'embed_user_attribute',
  },
} as const;

export interface ProfileWrite {
  email?: string | undefined;
  displayName?: string | undefined;
  picture?: string | undefined;
}

/** An ephemeral user past its end is gone, whether or not a later request has removed its row yet. */
const notExpired = (eb: ExpressionBuilder<Database, 'external_user'>) =>
  eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]);

/** Reads of external_user with its memberships and values in both catalogs (writes: ExternalUserWrites); bounded by the account. */
export class ExternalUserRepo {
  constructor(private readonly db: Executor) {}

  /** Group names per user, ordered by name. */
  async groupNames(catalog: Catalog, accountId: number, userIds: number[]): Promise<Map<number, string[]>> {
    const byUser = new Map<number, string[]>();
    if (userIds.length === 0) return byUser;
    const t = catalogTables[catalog];
    const { rows } = await sql<{ user_id: number; name: string }>`
      select m.external_user_id as user_id, g.name from ${sql.table(t.members)} m
      join ${sql.table(t.groups)} g on g.id = m.${sql.ref(t.groupId)}
      where m.account_id = ${accountId} and m.external_user_id in (${sql.join(userIds)})
      order by g.name`.execute(this.db);
    for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.name]);
    return byUser;
  }

  /** Attribute values per user, ordered by attribute name. */
  async attributeValues(
    catalog: Catalog,
    accountId: number,
    userIds: number[],
  ): Promise<Map<number, Array<{ name: string; value: unknown }>>> {
    const byUser = new Map<number, Array<{ name: string; value: unknown }>>();
    if (userIds.length === 0) return byUser;
    const t = catalogTables[catalog];
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
      .where(notExpired)
      .executeTakeFirst();
  }

  findById(accountId: number, id: number) {
    return this.db
      .selectFrom('external_user')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where(notExpired)
      .executeTakeFirst();
  }

  list(accountId: number, tenantId: number, after: number | undefined, limit: number) {
    return this.db
      .selectFrom('external_user')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('embed_tenant_id', '=', tenantId)
      .where(notExpired)
      .$call(afterId('id', after, limit))
      .execute();
  }
}
