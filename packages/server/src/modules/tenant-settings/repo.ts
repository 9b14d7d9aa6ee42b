import type { Updateable } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { TenantSettingsTable } from '../../store/schema.js';

export class TenantSettingsRepo {
  constructor(private readonly db: Executor) {}

  find(accountId: number) {
    return this.db.selectFrom('tenant_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  }

  /** A new account's row, every setting at its default. */
  async create(accountId: number) {
    await this.db.insertInto('tenant_settings').values({ account_id: accountId }).execute();
  }

  /** Upsert: accounts get their row when created, but one made some other way gets it here. */
  async save(accountId: number, changes: Updateable<TenantSettingsTable>) {
    const values = { ...changes, updated_at: new Date() };
    await this.db
      .insertInto('tenant_settings')
      .values({ account_id: accountId, ...values })
      .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
      .execute();
  }
}
