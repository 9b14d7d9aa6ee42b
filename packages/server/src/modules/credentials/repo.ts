import type { Kysely } from 'kysely';
import type { Database, Role } from '../../store/schema.js';
import { policiesOfUser } from '../resource-policies/public.js';
import { userActive, userRole } from '../users/public.js';

/**
 * A live credential row with the state of the user it acts for. The user's columns and policies
 * come from their owners' subqueries (users, resource-policies, groups), so verification stays
 * one round trip; every credential has a user (the column is not null, deleting the user deletes it).
 */
export interface CredentialRecord {
  id: number;
  account_id: number;
  user_id: number | null;
  role: Role;
  deployment_ids: number[] | null;
  revoked_at: Date | null;
  expires_at?: Date | null;
  user_active: boolean | null;
  user_role: Role | null;
  /** An API key's own permissions (null: its role's). */
  permissions?: string[] | null;
  /** The resource policies of the user and the user's groups, as `type:id:action` (null: none). */
  policies: string[] | null;
}

export class CredentialRepo {
  constructor(private readonly db: Kysely<Database>) {}

  findApiKeyByHash(hash: string): Promise<CredentialRecord | undefined> {
    return this.db
      .selectFrom('api_key as k')
      .select(['k.id', 'k.account_id', 'k.user_id', 'k.role', 'k.deployment_ids', 'k.revoked_at', 'k.permissions'])
      .select((eb) => [
        userActive(eb.ref('k.user_id')).as('user_active'),
        userRole(eb.ref('k.user_id')).as('user_role'),
        policiesOfUser(eb.ref('k.account_id'), eb.ref('k.user_id')).as('policies'),
      ])
      .where('k.key_hash', '=', hash)
      .executeTakeFirst();
  }

  findAccessTokenByHash(hash: string): Promise<CredentialRecord | undefined> {
    return this.db
      .selectFrom('access_token as t')
      .select(['t.id', 't.account_id', 't.user_id', 't.revoked_at', 't.expires_at'])
      .select((eb) => [
        // An access token acts with its user's role: the user's row is the only place it is kept.
        userRole(eb.ref('t.user_id')).as('role'),
        userActive(eb.ref('t.user_id')).as('user_active'),
        userRole(eb.ref('t.user_id')).as('user_role'),
        policiesOfUser(eb.ref('t.account_id'), eb.ref('t.user_id')).as('policies'),
      ])
      .select((eb) => eb.val<number[] | null>(null).as('deployment_ids'))
      .where('t.token_hash', '=', hash)
      .executeTakeFirst() as Promise<CredentialRecord | undefined>;
  }

  findScimTokenByHash(hash: string) {
    return this.db.selectFrom('scim_token').select(['id', 'account_id', 'revoked_at']).where('token_hash', '=', hash).executeTakeFirst();
  }

  touchApiKey(id: number) {
    return this.db.updateTable('api_key').set({ last_used_at: new Date() }).where('id', '=', id).execute();
  }

  touchScimToken(id: number) {
    return this.db.updateTable('scim_token').set({ last_used_at: new Date() }).where('id', '=', id).execute();
  }
}
