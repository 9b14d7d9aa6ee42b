import type { EgressPolicy } from '../../egress/policy.js';
import type { Kysely } from 'kysely';
import { toIso, toIsoOrNull } from '../../http/common-schemas.js';
import { conflict, notFound } from '../../http/errors.js';
import { byId, decodeCursor, pageSize, toPage, type PageQuery } from '../../http/pagination.js';
import type { SecretBox } from '../../lib/secrets.js';
import type { Database, UserOAuthTokenRow } from '../../store/schema.js';
import type { OAuthIntegrationService, OAuthIntegrationView } from '../oauth-integrations/service.js';
import { requestTokens, revokeAtProvider, type IssuedTokens, type ProviderClient } from './provider.js';
import { UserOAuthTokenRepo } from './repo.js';
import type { CreateUserOAuthToken, UserOAuthTokenView } from './schemas.js';

const TOKENS = byId('user-oauth-tokens');

/** Who acts: the calling user of the account. A token is only ever seen or changed by the user it was issued to. */
export interface TokenHolder {
  accountId: number;
  userId: number;
}

/**
 * OAuth tokens users hold through the account's OAuth integrations. The server runs the
 * authorization-code and refresh grants against the integration's token endpoint, keeps the
 * tokens sealed with the secret box and answers only metadata. Revoking asks the provider to
 * revoke (RFC 7009) when the integration's config names a `revocationUrl`, then erases the sealed
 * tokens and keeps the row, marked revoked.
 */
export class UserOAuthTokenService {
  private readonly repo: UserOAuthTokenRepo;

  constructor(
    db: Kysely<Database>,
    private readonly secrets: SecretBox,
    private readonly integrations: OAuthIntegrationService,
    private readonly egress: EgressPolicy,
  ) {
    this.repo = new UserOAuthTokenRepo(db);
  }

  async list(holder: TokenHolder, query: PageQuery) {
    const rows = await this.repo.list(holder.accountId, holder.userId, decodeCursor(TOKENS, query.after)?.id, pageSize(query) + 1);
    return toPage(TOKENS, rows, query, toView);
  }

  async create(holder: TokenHolder, input: CreateUserOAuthToken): Promise<UserOAuthTokenView> {
    const integration = await this.integrations.get(holder.accountId, input.integrationId);
    const grant: Record<string, string> = { grant_type: 'authorization_code', code: input.code, redirect_uri: integration.redirectUri };
    if (input.codeVerifier !== undefined) grant.code_verifier = input.codeVerifier;
    const issued = await requestTokens(await this.clientOf(holder.accountId, integration), grant);
    const row = await this.repo.insert({
      account_id: holder.accountId,
      user_id: holder.userId,
      integration_id: integration.id,
      ...this.sealed(issued),
      refresh_token_encrypted: issued.refreshToken === null ? null : this.secrets.seal(issued.refreshToken),
      scopes: JSON.stringify(issued.scopes ?? stringsOf(integration.scopes)),
    });
    return toView(row);
  }

  /** Refreshes of one token in this process, run one after another (see refresh). */
  private readonly refreshing = new Map<number, Promise<unknown>>();

  /**
   * A provider that rotates refresh tokens accepts each once, so two refreshes of a token at once
   * would fail one: in this process they queue; across replicas the loser finds the winner's tokens.
   */
  async refresh(holder: TokenHolder, id: number): Promise<UserOAuthTokenView> {
    const before = this.refreshing.get(id) ?? Promise.resolve();
    const mine = before.catch(() => undefined).then(() => this.refreshNow(holder, id));
    this.refreshing.set(id, mine);
    try {
      return await mine;
    } finally {
      if (this.refreshing.get(id) === mine) this.refreshing.delete(id);
    }
  }

  private async refreshNow(holder: TokenHolder, id: number): Promise<UserOAuthTokenView> {
    const row = await this.held(holder, id);
    if (row.revoked_at !== null) throw conflict(`OAuth token ${id} is revoked; create a new one`);
    if (row.refresh_token_encrypted === null) throw conflict(`OAuth token ${id} has no refresh token: the provider issued none`);
    const integration = await this.integrations.get(holder.accountId, row.integration_id);
    const refreshToken = this.secrets.open(row.refresh_token_encrypted);
    let issued: IssuedTokens;
    try {
      issued = await requestTokens(await this.clientOf(holder.accountId, integration), {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      });
    } catch (error) {
      // A concurrent refresh may have rotated the refresh token first: its result is as good as ours.
      const now = await this.repo.find(holder.accountId, holder.userId, id);
      if (now && now.revoked_at === null && now.refresh_token_encrypted !== row.refresh_token_encrypted) return toView(now);
      throw error;
    }
    const updated = await this.repo.update(row.id, {
      ...this.sealed(issued),
      // RFC 6749 6: the provider may rotate the refresh token; when it does not, the old one stays valid.
      ...(issued.refreshToken === null ? {} : { refresh_token_encrypted: this.secrets.seal(issued.refreshToken) }),
      ...(issued.scopes === null ? {} : { scopes: JSON.stringify(issued.scopes) }),
      refreshed_at: new Date(),
    });
    if (!updated) throw conflict(`OAuth token ${id} was revoked while it was being refreshed`);
    return toView(updated);
  }

  /** Revokes at the provider when it can, then erases the sealed tokens. Revoking a revoked token does nothing. */
  async revoke(holder: TokenHolder, id: number): Promise<void> {
    const row = await this.held(holder, id);
    if (row.revoked_at !== null) return;
    const integration = await this.integrations.get(holder.accountId, row.integration_id);
    const url = revocationUrlOf(integration);
    if (url !== null) {
      const client = await this.clientOf(holder.accountId, integration);
      // RFC 7009 2.1: revoking the refresh token revokes the access tokens of the same grant too.
      if (row.refresh_token_encrypted !== null) {
        await revokeAtProvider(client, url, this.secrets.open(row.refresh_token_encrypted), 'refresh_token');
      }
      if (row.access_token_encrypted !== null) {
        await revokeAtProvider(client, url, this.secrets.open(row.access_token_encrypted), 'access_token');
      }
    }
    await this.repo.update(row.id, { access_token_encrypted: null, refresh_token_encrypted: null, revoked_at: new Date() });
  }

  /** The sealed access token, for the server's own calls to the provider; never part of an API answer. */
  async accessToken(holder: TokenHolder, id: number): Promise<string | null> {
    const row = await this.held(holder, id);
    return row.access_token_encrypted === null ? null : this.secrets.open(row.access_token_encrypted);
  }

  private async held(holder: TokenHolder, id: number): Promise<UserOAuthTokenRow> {
    const row = await this.repo.find(holder.accountId, holder.userId, id);
    if (!row) throw notFound(`OAuth token ${id} not found`);
    return row;
  }

  private sealed(issued: IssuedTokens) {
    return {
      access_token_encrypted: this.secrets.seal(issued.accessToken),
      token_type: issued.tokenType,
      expires_at: issued.expiresIn === null ? null : new Date(Date.now() + issued.expiresIn * 1000),
    };
  }

  private async clientOf(accountId: number, integration: OAuthIntegrationView): Promise<ProviderClient> {
    const config = integration.config ?? {};
    const method = config.tokenEndpointAuthMethod ?? config.token_endpoint_auth_method;
    return {
      egress: this.egress,
      tokenUrl: integration.tokenUrl,
      clientId: integration.clientId,
      clientSecret: integration.hasClientSecret ? await this.integrations.clientSecret(accountId, integration.id) : null,
      authMethod: method === 'client_secret_post' ? 'client_secret_post' : 'client_secret_basic',
    };
  }
}

/** The integration's RFC 7009 endpoint, from its config (`revocationUrl`, or the discovery name `revocation_endpoint`). */
function revocationUrlOf(integration: OAuthIntegrationView): string | null {
  const config = integration.config ?? {};
  const url = config.revocationUrl ?? config.revocation_endpoint;
  return typeof url === 'string' && url !== '' ? url : null;
}

const stringsOf = (values: unknown[] | null | undefined): string[] => (values ?? []).filter((v): v is string => typeof v === 'string');

function toView(row: UserOAuthTokenRow): UserOAuthTokenView {
  return {
    id: row.id,
    integrationId: row.integration_id,
    scopes: row.scopes,
    tokenType: row.token_type,
    expiresAt: toIsoOrNull(row.expires_at),
    hasRefreshToken: row.refresh_token_encrypted !== null,
    createdAt: toIso(row.created_at),
    refreshedAt: toIsoOrNull(row.refreshed_at),
    revoked: row.revoked_at !== null,
    revokedAt: toIsoOrNull(row.revoked_at),
  };
}
