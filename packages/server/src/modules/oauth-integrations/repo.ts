import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, OAuthIntegrationTable } from '../../store/schema.js';
import { afterId } from '../../store/keyset.js';

export class OAuthIntegrationRepo {
  constructor(private readonly db: Kysely<Database>) {}

  find(accountId: number, id: number) {
    return this.db.selectFrom('oauth_integration').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  list(accountId: number, after: number | undefined, limit: number) {
    return this.db
      .selectFrom('oauth_integration')
      .selectAll()
      .where('account_id', '=', accountId)
      .$call(afterId('id', after, limit))
      .execute();
  }

  insert(values: Insertable<OAuthIntegrationTable>) {
    return this.db.insertInto('oauth_integration').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(accountId: number, id: number, values: Updateable<OAuthIntegrationTable>) {
    return this.db
      .updateTable('oauth_integration')
      .set({ ...values, updated_at: new Date() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('oauth_integration')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
