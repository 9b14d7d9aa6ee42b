import { demandAllowedUrl } from '../../egress/saved-url.js';
import type { EgressPolicy } from '../../egress/policy.js';
import type { Static } from '@sinclair/typebox';
import type { Kysely, Updateable } from 'kysely';
import { toIso } from '../../http/common-schemas.js';
import { notFound } from '../../http/errors.js';
import type { PageQuery } from '../../http/pagination.js';
import type { SecretBox } from '../../lib/secrets.js';
import { AccountKeyedCache } from '../../store/account-caches.js';
import type { Database, OAuthIntegrationRow, OAuthIntegrationTable } from '../../store/schema.js';
import { AccountScopedRepo } from '../../store/account-scoped-repo.js';
import type { CreateOAuthIntegrationBody, OAuthIntegration, UpdateOAuthIntegrationBody } from './schemas.js';

export type OAuthIntegrationView = Static<typeof OAuthIntegration>;

/** OAuth integrations (sections 2.1, 4.1). An id of another account is as missing as an unknown one. */
export class OAuthIntegrationService {
  private readonly repo: AccountScopedRepo<'oauth_integration'>;
  /**
   * Integrations are configuration: read on every OAuth flow, changed rarely. Reads by id are kept
   * until a change anywhere empties the account's entries (see OAUTH_INTEGRATIONS_CACHE).
   */
  readonly byId = new AccountKeyedCache<number, OAuthIntegrationView>();

  constructor(
    db: Kysely<Database>,
    private readonly secrets: SecretBox,
    private readonly egress: EgressPolicy,
  ) {
    this.repo = new AccountScopedRepo(db, 'oauth_integration', 'oauth-integrations');
  }

  async get(accountId: number, id: number): Promise<OAuthIntegrationView> {
    const cached = this.byId.get(accountId, id);
    if (cached) return cached;
    const generation = this.byId.generation;
    const row = await this.repo.find(accountId, id);
    if (!row) throw notFound(`OAuth integration ${id} not found`);
    const view = toView(row);
    this.byId.remember(accountId, id, view, generation);
    return view;
  }

  async list(accountId: number, query: PageQuery) {
    return this.repo.page(accountId, query, toView);
  }

  async create(accountId: number, input: Static<typeof CreateOAuthIntegrationBody>): Promise<OAuthIntegrationView> {
    await this.demandAllowed(input.tokenUrl, input.config);
    const row = await this.repo.insert({
      account_id: accountId,
      name: input.name,
      type: input.type,
      auth_url: input.authUrl,
      token_url: input.tokenUrl,
      client_id: input.clientId,
      client_secret_encrypted: input.clientSecret === undefined ? null : this.secrets.seal(input.clientSecret),
      redirect_uri: input.redirectUri,
      config: input.config == null ? null : JSON.stringify(input.config),
      scopes: input.scopes == null ? null : JSON.stringify(input.scopes),
    });
    return toView(row);
  }

  /** The endpoints the server itself calls (token and revocation), never an address it would not fetch. */
  private async demandAllowed(tokenUrl: string | undefined, config: Record<string, unknown> | null | undefined): Promise<void> {
    await demandAllowedUrl(this.egress, 'tokenUrl', tokenUrl);
    for (const key of ['revocationUrl', 'revocation_endpoint']) {
      const value = config?.[key];
      if (typeof value === 'string') await demandAllowedUrl(this.egress, `config.${key}`, value);
    }
  }

  async update(accountId: number, id: number, input: Static<typeof UpdateOAuthIntegrationBody>) {
    await this.demandAllowed(input.tokenUrl, input.config);
    const changes: Updateable<OAuthIntegrationTable> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.type !== undefined) changes.type = input.type;
    if (input.authUrl !== undefined) changes.auth_url = input.authUrl;
    if (input.tokenUrl !== undefined) changes.token_url = input.tokenUrl;
    if (input.clientId !== undefined) changes.client_id = input.clientId;
    if (input.clientSecret !== undefined) changes.client_secret_encrypted = this.secrets.seal(input.clientSecret);
    if (input.redirectUri !== undefined) changes.redirect_uri = input.redirectUri;
    if (input.config !== undefined) changes.config = input.config === null ? null : JSON.stringify(input.config);
    if (input.scopes !== undefined) changes.scopes = input.scopes === null ? null : JSON.stringify(input.scopes);
    const row = await this.repo.update(accountId, id, changes);
    if (!row) throw notFound(`OAuth integration ${id} not found`);
    return toView(row);
  }

  async delete(accountId: number, id: number): Promise<void> {
    if (!(await this.repo.delete(accountId, id))) throw notFound(`OAuth integration ${id} not found`);
  }

  /** For the server's own use when it talks to the provider; never reaches an API response. */
  async clientSecret(accountId: number, id: number): Promise<string | null> {
    const row = await this.repo.find(accountId, id);
    if (!row) throw notFound(`OAuth integration ${id} not found`);
    return row.client_secret_encrypted === null ? null : this.secrets.open(row.client_secret_encrypted);
  }
}

function toView(row: OAuthIntegrationRow): OAuthIntegrationView {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    authUrl: row.auth_url,
    tokenUrl: row.token_url,
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    config: row.config ?? null,
    scopes: row.scopes ?? null,
    hasClientSecret: row.client_secret_encrypted !== null,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
