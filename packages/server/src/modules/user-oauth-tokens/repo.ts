import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, UserOAuthTokenTable } from '../../store/schema.js';
import { afterId } from '../../store/keyset.js';

/** user_oauth_token rows, always of one user of one account: another user's token is not found. */
export class UserOAuthTokenRepo {
  constructor(private readonly db: Kysely<Database>) {}

  find(accountId: number, userId: number, id: number) {
    return this.db
      .selectFrom('user_oauth_token')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  list(accountId: number, userId: number, after: number | undefined, limit: number) {
    return this.db
      .selectFrom('user_oauth_token')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .$call(afterId('id', after, limit))
      .execute();
  }

  insert(values: Insertable<UserOAuthTokenTable>) {
    return this.db.insertInto('user_oauth_token').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /** Changes a token that is not revoked; undefined when it is gone or was revoked meanwhile. */
  update(id: number, values: Updateable<UserOAuthTokenTable>) {
    return this.db
      .updateTable('user_oauth_token')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }
}
