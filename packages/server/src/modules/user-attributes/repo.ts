import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { UserAttributeTable } from '../../store/schema.js';
import { afterId } from '../../store/keyset.js';

/** user_attribute (definitions) and user_attribute_value (per user); every query is bounded by the account. */
export class UserAttributeRepo {
  constructor(private readonly db: Executor) {}

  find(accountId: number, id: number) {
    return this.base(accountId).where('id', '=', id).executeTakeFirst();
  }

  findByNames(accountId: number, names: string[]) {
    if (names.length === 0) return Promise.resolve([]);
    return this.base(accountId).where('name', 'in', names).orderBy('id').execute();
  }

  list(accountId: number, after: number | undefined, limit: number) {
    return this.base(accountId)
      .$call(afterId('id', after, limit))
      .execute();
  }

  insert(values: Insertable<UserAttributeTable>) {
    return this.db.insertInto('user_attribute').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(accountId: number, id: number, values: Updateable<UserAttributeTable>) {
    return this.db
      .updateTable('user_attribute')
      .set({ ...values, updated_at: new Date() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('user_attribute').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  values(accountId: number, userId: number) {
    return this.db
      .selectFrom('user_attribute_value as v')
      .innerJoin('user_attribute as a', 'a.id', 'v.attribute_id')
      .select(['a.name', 'a.type', 'v.value'])
      .where('v.account_id', '=', accountId)
      .where('v.user_id', '=', userId)
      .orderBy('a.id')
      .execute();
  }

  async putValue(accountId: number, userId: number, attributeId: number, value: unknown) {
    await this.db
      .insertInto('user_attribute_value')
      .values({ account_id: accountId, user_id: userId, attribute_id: attributeId, value: JSON.stringify(value) })
      .onConflict((oc) =>
        oc.columns(['attribute_id', 'user_id']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updated_at: new Date() })),
      )
      .execute();
  }

  async clearValue(accountId: number, userId: number, attributeId: number) {
    await this.db
      .deleteFrom('user_attribute_value')
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .where('attribute_id', '=', attributeId)
      .execute();
  }

  private base(accountId: number) {
    return this.db.selectFrom('user_attribute').selectAll().where('account_id', '=', accountId);
  }
}
