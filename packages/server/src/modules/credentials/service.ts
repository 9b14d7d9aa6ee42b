import { sql, type Kysely, type Selectable } from 'kysely';
import { ACCESS_TOKEN_PREFIX, API_KEY_PREFIX, REFRESH_TOKEN_PREFIX, SCIM_TOKEN_PREFIX } from '../../http/credential-header.js';
import { forbidden, notFound } from '../../http/errors.js';
import { authorize, credentialReach, type Resource } from '../../http/authorize.js';
import type { UserPrincipal } from '../../http/principal.js';
import { byId, pageSize, decodeCursor, toPage, type PageQuery } from '../../http/pagination.js';
import { hashCredential, randomBase62 } from '../../lib/secrets.js';
import type { Database, Role } from '../../store/schema.js';
import { CredentialRepo } from './repo.js';
import { CredentialVerifiers } from './verify.js';
import { toApiKey, toScimToken } from './mappers.js';
import { afterId } from '../../store/keyset.js';

/** The cursors of each list name it, so one list's cursor is refused by the other. */
const LISTS = { api_key: byId('api-keys'), scim_token: byId('scim-tokens') };

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;

export interface NewApiKey {
  name: string;
  role: Role;
  deploymentIds: number[] | null;
  /** The key's own permissions on its deployments, replacing its role's (then stored as member, the lowest). */
  permissions?: string[] | null;
}

/** A credential that reaches everything: whoever may manage it may manage any API key. */
const EVERY_CREDENTIAL: Resource = { type: 'credential', role: 'admin', deploymentIds: null };

/** Issues, lists and revokes the credentials people hold; only hashes are ever stored. */
export class CredentialService {
  readonly verifiers: CredentialVerifiers;

  constructor(private readonly db: Kysely<Database>) {
    this.verifiers = new CredentialVerifiers(new CredentialRepo(db));
  }

  async createApiKey(accountId: number, userId: number, input: NewApiKey, secret = `${API_KEY_PREFIX}${randomBase62()}`) {
    const row = await this.db
      .insertInto('api_key')
      .values({
        account_id: accountId,
        user_id: userId,
        name: input.name,
        role: input.permissions ? 'member' : input.role,
        deployment_ids: input.deploymentIds,
        permissions: input.permissions ?? null,
        key_hash: hashCredential(secret),
        key_prefix: secret.slice(0, 8),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...toApiKey(row), key: secret };
  }

  /** A caller limited to deployments or to the member role sees only the keys it could manage. */
  async listApiKeys(accountId: number, query: PageQuery, caller?: UserPrincipal) {
    const after = decodeCursor(LISTS.api_key, query.after)?.id;
    const reach = caller ? credentialReach(caller) : null;
    const rows = await this.db
      .selectFrom('api_key')
      .selectAll()
      .where('account_id', '=', accountId)
      .$if(reach?.role === 'member', (q) => q.where('role', '=', 'member'))
      .$if(!!reach && reach.deploymentIds !== null, (q) =>
        q
          .where('deployment_ids', 'is not', null)
          .where(sql<boolean>`deployment_ids <@ array[${sql.join([...reach!.deploymentIds!, 0])}]::integer[]`),
      )
      .$call(afterId('id', after, pageSize(query) + 1))
      .execute();
    return toPage(LISTS.api_key, rows, query, toApiKey);
  }

  /**
   * Revoking is idempotent and keeps the row, so the audit trail of a key survives it. A caller
   * may revoke only keys within its reach; a scoped caller gets 403 for a key that does not exist
   * too, so it cannot probe the ids of keys it may not see.
   */
  async revokeApiKey(accountId: number, id: number, caller?: UserPrincipal): Promise<void> {
    // Only a caller that may not manage every key needs to know what this one reaches.
    if (caller && authorize(caller, 'ApiKeysManage', EVERY_CREDENTIAL) !== null) {
      const row = await this.db
        .selectFrom('api_key')
        .select(['role', 'deployment_ids', 'permissions'])
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      const reach: Resource | null = row
        ? { type: 'credential', role: row.role, deploymentIds: row.deployment_ids, permissions: row.permissions }
        : null;
      if (!reach || authorize(caller, 'ApiKeysManage', reach) !== null) {
        throw forbidden(`This credential may not revoke API key ${id}: it reaches more than this credential does`);
      }
    }
    if (!(await this.revokeRow('api_key', accountId, id))) throw notFound(`API key ${id} not found`);
  }

  async createScimToken(accountId: number, userId: number | null, name: string) {
    const secret = `${SCIM_TOKEN_PREFIX}${randomBase62()}`;
    const row = await this.db
      .insertInto('scim_token')
      .values({
        account_id: accountId,
        created_by_user_id: userId,
        name,
        token_hash: hashCredential(secret),
        token_prefix: secret.slice(0, 10),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...toScimToken(row), token: secret };
  }

  async listScimTokens(accountId: number, query: PageQuery) {
    return toPage(LISTS.scim_token, await this.listRows('scim_token', accountId, query), query, toScimToken);
  }

  async revokeScimToken(accountId: number, id: number): Promise<void> {
    if (!(await this.revokeRow('scim_token', accountId, id))) throw notFound(`SCIM token ${id} not found`);
  }

  /** API keys and SCIM tokens list and revoke alike: by account, keyset-paged, revoked once. */
  private listRows<T extends 'api_key' | 'scim_token'>(table: T, accountId: number, query: PageQuery) {
    const after = decodeCursor(LISTS[table], query.after)?.id;
    return this.db
      .selectFrom(table as 'api_key' | 'scim_token')
      .selectAll()
      .where('account_id', '=', accountId)
      .$call(afterId('id', after, pageSize(query) + 1))
      .execute() as Promise<Selectable<Database[T]>[]>;
  }

  private async revokeRow(table: 'api_key' | 'scim_token', accountId: number, id: number): Promise<boolean> {
    const row = await this.db
      .updateTable(table)
      .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A short-lived access token and the refresh token that renews it (the device flow issues these). */
  async issueAccessToken(accountId: number, userId: number, ttlSeconds = ACCESS_TOKEN_TTL_S) {
    const accessToken = `${ACCESS_TOKEN_PREFIX}${randomBase62()}`;
    const refreshToken = `${REFRESH_TOKEN_PREFIX}${randomBase62()}`;
    const now = Date.now();
    const row = await this.db
      .insertInto('access_token')
      .values({
        account_id: accountId,
        user_id: userId,
        token_hash: hashCredential(accessToken),
        refresh_token_hash: hashCredential(refreshToken),
        expires_at: new Date(now + ttlSeconds * 1000),
        refresh_expires_at: new Date(now + REFRESH_TOKEN_TTL_S * 1000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, accessToken, refreshToken, expiresIn: ttlSeconds, tokenType: 'Bearer' as const };
  }

  /** The access token a refresh token belongs to, for rotation; undefined when unknown. */
  findByRefreshToken(accountId: number, refreshToken: string) {
    return this.db
      .selectFrom('access_token')
      .select(['id', 'user_id as userId', 'revoked_at as revokedAt', 'refresh_expires_at as refreshExpiresAt'])
      .where('account_id', '=', accountId)
      .where('refresh_token_hash', '=', hashCredential(refreshToken))
      .executeTakeFirst();
  }

  async findAccessTokenId(accountId: number, accessToken: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('access_token')
      .select('id')
      .where('account_id', '=', accountId)
      .where('token_hash', '=', hashCredential(accessToken))
      .executeTakeFirst();
    return row?.id;
  }

  /** Revokes one access token unless it already was; false means it was (a refresh token replayed). */
  async revokeAccessTokenOnce(accountId: number, id: number): Promise<boolean> {
    const row = await this.db
      .updateTable('access_token')
      .set({ revoked_at: new Date() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async revokeAccessTokens(accountId: number, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('access_token')
      .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
  }

  /** Name and prefix of an API key, to show whoever holds it (whoami). */
  describeApiKey(accountId: number, id: number) {
    return this.db
      .selectFrom('api_key')
      .select(['name', 'key_prefix as prefix'])
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }
}
