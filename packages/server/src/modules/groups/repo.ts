import { sql, type Updateable } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { UserGroupTable } from '../../store/schema.js';
import { afterId } from '../../store/keyset.js';

export interface GroupSearch {
  offset: number;
  limit: number;
  name?: string;
  externalId?: string;
}

/** user_group and group_member; every query is bounded by the account. */
export class GroupRepo {
  constructor(private readonly db: Executor) {}

  find(accountId: number, id: number) {
    return this.base(accountId).where('g.id', '=', id).executeTakeFirst();
  }

  findByUuid(accountId: number, uuid: string) {
    return this.base(accountId).where('g.uuid', '=', uuid).executeTakeFirst();
  }

  findByNames(accountId: number, names: string[]) {
    if (names.length === 0) return Promise.resolve([]);
    return this.base(accountId).where('g.name', 'in', names).orderBy('g.id').execute();
  }

  /** Groups whose name equals `name` ignoring case; served by the unique index user_group_lower_name. */
  holdersOfName(accountId: number, name: string) {
    return this.db
      .selectFrom('user_group')
      .select(['id', 'name'])
      .where('account_id', '=', accountId)
      .where(sql<string>`lower(name)`, '=', name.toLowerCase())
      .execute();
  }

  /** Ids only: no member count, so resolving names costs one index lookup per name. */
  idsByNames(accountId: number, names: string[]) {
    if (names.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('user_group').select(['id', 'name']).where('account_id', '=', accountId).where('name', 'in', names).execute();
  }

  many(accountId: number, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.base(accountId).where('g.id', 'in', ids).orderBy('g.id').execute();
  }

  list(accountId: number, after: number | undefined, limit: number) {
    return this.base(accountId)
      .$call(afterId('g.id', after, limit))
      .execute();
  }

  async search(accountId: number, search: GroupSearch) {
    const filtered = this.base(accountId)
      .$if(search.name !== undefined, (q) => q.where('g.name', '=', search.name!))
      .$if(search.externalId !== undefined, (q) => q.where('g.external_id', '=', search.externalId!));
    const rows = await filtered.orderBy('g.id').offset(search.offset).limit(search.limit).execute();
    const count = await filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(count.total) };
  }

  ofUser(accountId: number, userId: number) {
    return this.base(accountId)
      .where('g.id', 'in', (eb) => eb.selectFrom('group_member').select('group_id').where('user_id', '=', userId))
      .orderBy('g.id')
      .execute();
  }

  insert(values: { account_id: number; name: string; description: string | null; external_id: string | null }) {
    return this.db.insertInto('user_group').values(values).returning('id').executeTakeFirstOrThrow();
  }

  async update(accountId: number, id: number, values: Updateable<UserGroupTable>): Promise<boolean> {
    const row = await this.db
      .updateTable('user_group')
      .set((eb) => ({ ...values, updated_at: new Date(), version: eb('version', '+', 1) }))
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('user_group').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async memberIds(accountId: number, groupId: number, after?: number, limit?: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('group_member')
      .select('user_id')
      .where('account_id', '=', accountId)
      .where('group_id', '=', groupId)
      .$if(after !== undefined, (q) => q.where('user_id', '>', after!))
      .orderBy('user_id')
      .$if(limit !== undefined, (q) => q.limit(limit!))
      .execute();
    return rows.map((r) => r.user_id);
  }

  async addMembers(accountId: number, pairs: Array<{ groupId: number; userId: number }>) {
    if (pairs.length === 0) return;
    await this.db
      .insertInto('group_member')
      .values(pairs.map((p) => ({ account_id: accountId, group_id: p.groupId, user_id: p.userId })))
      .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
      .execute();
  }

  /** Removes the group's members not in `keep` (all of them when `keep` is empty). */
  async removeMembersExcept(accountId: number, groupId: number, keep: number[]) {
    await this.db
      .deleteFrom('group_member')
      .where('account_id', '=', accountId)
      .where('group_id', '=', groupId)
      .$if(keep.length > 0, (q) => q.where('user_id', 'not in', keep))
      .execute();
  }

  /** Removes the user's memberships in groups not in `keep` (all of them when `keep` is empty). */
  async removeUserFromGroupsExcept(accountId: number, userId: number, keep: number[]) {
    await this.db
      .deleteFrom('group_member')
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .$if(keep.length > 0, (q) => q.where('group_id', 'not in', keep))
      .execute();
  }

  async removeMember(accountId: number, groupId: number, userId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('group_member')
      .where('account_id', '=', accountId)
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Touching the group on membership changes keeps SCIM's version (ETag) of the group honest. */
  async touch(accountId: number, groupId: number) {
    await this.update(accountId, groupId, {});
  }

  private base(accountId: number) {
    return this.db
      .selectFrom('user_group as g')
      .selectAll('g')
      .select((eb) =>
        eb
          .selectFrom('group_member as m')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('m.group_id', '=', 'g.id')
          .as('user_count'),
      )
      .where('g.account_id', '=', accountId);
  }
}
