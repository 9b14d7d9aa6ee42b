import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database, Role } from '../../store/schema.js';

/** A live credential row joined with the state of the user it acts for. */
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

/**
 * The resource policies a credential's user holds, directly or through a group, in one column of
 * the credential's own query: verification stays one round trip. Only the types authorisation
 * reads today are loaded (content types come with the workspace).
 */
function policiesOfUser(): RawBuilder<string[] | null> {
  return sql<string[] | null>`(
    select array_agg(p.resource_type || ':' || p.resource_id || ':' || p.action)
    from resource_policy p
    where p.account_id = u.account_id and p.resource_type in ('Global', 'Deployment')
      and (p.user_id = u.id or p.group_id in (select m.group_id from group_member m where m.user_id = u.id))
  )`;
}

export class CredentialRepo {
  constructor(private readonly db: Kysely<Database>) {}

  findApiKeyByHash(hash: string): Promise<CredentialRecord | undefined> {
    return this.db
      .selectFrom('api_key as k')
      .innerJoin('app_user as u', 'u.id', 'k.user_id')
      .select(['k.id', 'k.account_id', 'k.user_id', 'k.role', 'k.deployment_ids', 'k.revoked_at', 'k.permissions'])
      .select(['u.active as user_active', 'u.role as user_role'])
      .select(policiesOfUser().as('policies'))
      .where('k.key_hash', '=', hash)
      .executeTakeFirst();
  }

  findAccessTokenByHash(hash: string): Promise<CredentialRecord | undefined> {
    return this.db
      .selectFrom('access_token as t')
      .innerJoin('app_user as u', 'u.id', 't.user_id')
      .select(['t.id', 't.account_id', 't.user_id', 'u.role', 't.revoked_at', 't.expires_at'])
      .select(['u.active as user_active', 'u.role as user_role'])
      .select(policiesOfUser().as('policies'))
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
