import { sql } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { AttributeType } from '../../store/schema.js';
import { afterId } from '../../store/keyset.js';

/** embed_tenant, embed_group, embed_user_attribute and embed_account; every query is bounded by the account. */
export class EmbedTenantRepo {
  constructor(private readonly db: Executor) {}

  findTenant(accountId: number, name: string) {
    return this.db.selectFrom('embed_tenant').selectAll().where('account_id', '=', accountId).where('name', '=', name).executeTakeFirst();
  }

  /** Insert-or-nothing then read: concurrent first uses of one name all get the same row. */
  async ensureTenant(accountId: number, name: string) {
    const inserted = await this.db
      .insertInto('embed_tenant')
      .values({ account_id: accountId, name })
      .onConflict((oc) => oc.columns(['account_id', 'name']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return inserted ?? (await this.findTenant(accountId, name))!;
  }

  groupsByNames(accountId: number, tenantId: number, names: string[]) {
    if (names.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('embed_group')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('embed_tenant_id', '=', tenantId)
      .where('name', 'in', names)
      .execute();
  }

  attributesByNames(accountId: number, tenantId: number, names: string[], lock = false) {
    if (names.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('embed_user_attribute')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('embed_tenant_id', '=', tenantId)
      .where('name', 'in', names)
      .$if(lock, (q) => q.forUpdate())
      .execute();
  }

  /** Sorted by name by the caller, so concurrent definers take the unique-index locks in one order. */
  async insertMissingGroups(accountId: number, tenantId: number, groups: Array<{ name: string; description: string | null }>) {
    if (groups.length === 0) return;
    await this.db
      .insertInto('embed_group')
      .values(groups.map((g) => ({ account_id: accountId, embed_tenant_id: tenantId, name: g.name, description: g.description })))
      .onConflict((oc) => oc.columns(['embed_tenant_id', 'name']).doNothing())
      .execute();
  }

  /** Section 2.9: a supplied description replaces a different one; it is never cleared. */
  async updateGroupDescription(accountId: number, tenantId: number, name: string, description: string) {
    await this.db
      .updateTable('embed_group')
      .set({ description, updated_at: new Date() })
      .where('account_id', '=', accountId)
      .where('embed_tenant_id', '=', tenantId)
      .where('name', '=', name)
      .where(sql<boolean>`description is distinct from ${description}`)
      .execute();
  }

  async insertMissingAttributes(accountId: number, tenantId: number, attributes: AttributeDefinitionRow[]) {
    if (attributes.length === 0) return;
    await this.db
      .insertInto('embed_user_attribute')
      .values(
        attributes.map((a) => ({
          account_id: accountId,
          embed_tenant_id: tenantId,
          name: a.name,
          type: a.type,
          display_name: a.displayName ?? null,
          default_value: a.defaultValue ?? null,
          description: a.description ?? null,
        })),
      )
      .onConflict((oc) => oc.columns(['embed_tenant_id', 'name']).doNothing())
      .execute();
  }

  async updateAttribute(accountId: number, id: number, changes: { display_name?: string; default_value?: string; description?: string }) {
    await this.db
      .updateTable('embed_user_attribute')
      .set({ ...changes, updated_at: new Date() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }

  listGroups(accountId: number, tenantId: number, after: number | undefined, limit: number) {
    return this.db
      .selectFrom('embed_group as g')
      .select(['g.id', 'g.name', 'g.description'])
      .select((eb) =>
        eb
          .selectFrom('external_user_tenant_group as m')
          .whereRef('m.embed_group_id', '=', 'g.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('user_count'),
      )
      .where('g.account_id', '=', accountId)
      .where('g.embed_tenant_id', '=', tenantId)
      .$call(afterId('g.id', after, limit))
      .execute();
  }

  listAttributes(accountId: number, tenantId: number, after: number | undefined, limit: number) {
    return this.db
      .selectFrom('embed_user_attribute')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('embed_tenant_id', '=', tenantId)
      .$call(afterId('id', after, limit))
      .execute();
  }

  async deleteGroup(accountId: number, tenantId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('embed_group')
      .where('account_id', '=', accountId)
      .where('embed_tenant_id', '=', tenantId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async deleteAttribute(accountId: number, tenantId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('embed_user_attribute')
      .where('account_id', '=', accountId)
      .where('embed_tenant_id', '=', tenantId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}

export interface AttributeDefinitionRow {
  name: string;
  type: AttributeType;
  displayName?: string | undefined;
  defaultValue?: string | undefined;
  description?: string | undefined;
}
