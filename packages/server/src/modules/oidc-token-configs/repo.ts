import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, OidcTokenConfigTable } from '../../store/schema.js';
import { afterId } from '../../store/keyset.js';

/** oidc_token_config rows, always within one account. */
export class OidcTokenConfigRepo {
  constructor(private readonly db: Kysely<Database>) {}

  find(accountId: number, id: number) {
    return this.db.selectFrom('oidc_token_config').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  /** The enabled config of the account that trusts this issuer (at most one: issuers are unique per account). */
  enabledByIssuer(accountId: number, issuer: string) {
    return this.db
      .selectFrom('oidc_token_config')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('issuer', '=', issuer)
      .where('enabled', '=', true)
      .executeTakeFirst();
  }

  list(accountId: number, after: number | undefined, limit: number) {
    return this.db
      .selectFrom('oidc_token_config')
      .selectAll()
      .where('account_id', '=', accountId)
      .$call(afterId('id', after, limit))
      .execute();
  }

  insert(values: Insertable<OidcTokenConfigTable>) {
    return this.db.insertInto('oidc_token_config').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(accountId: number, id: number, values: Updateable<OidcTokenConfigTable>) {
    return this.db
      .updateTable('oidc_token_config')
      .set({ ...values, updated_at: new Date() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('oidc_token_config')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
