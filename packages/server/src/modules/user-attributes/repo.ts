import { AccountScopedRepo } from '../../store/account-scoped-repo.js';
import type { Executor } from '../../store/executor.js';

/** user_attribute (definitions) and user_attribute_value (per user); every query is bounded by the account. */
export class UserAttributeRepo extends AccountScopedRepo<'user_attribute'> {
  constructor(private readonly executor: Executor) {
    super(executor, 'user_attribute', 'user-attributes');
  }

  findByNames(accountId: number, names: string[]) {
    if (names.length === 0) return Promise.resolve([]);
    return this.select(accountId).where('name', 'in', names).orderBy('id').execute();
  }

  values(accountId: number, userId: number) {
    return this.executor
      .selectFrom('user_attribute_value as v')
      .innerJoin('user_attribute as a', 'a.id', 'v.attribute_id')
      .select(['a.name', 'a.type', 'v.value'])
      .where('v.account_id', '=', accountId)
      .where('v.user_id', '=', userId)
      .orderBy('a.id')
      .execute();
  }

  async putValue(accountId: number, userId: number, attributeId: number, value: unknown) {
    await this.executor
      .insertInto('user_attribute_value')
      .values({ account_id: accountId, user_id: userId, attribute_id: attributeId, value: JSON.stringify(value) })
      .onConflict((oc) =>
        oc.columns(['attribute_id', 'user_id']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updated_at: new Date() })),
      )
      .execute();
  }

  async clearValue(accountId: number, userId: number, attributeId: number) {
    await this.executor
      .deleteFrom('user_attribute_value')
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .where('attribute_id', '=', attributeId)
      .execute();
  }
}
