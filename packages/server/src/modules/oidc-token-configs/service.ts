import { demandAllowedUrl } from '../../egress/saved-url.js';
import type { EgressPolicy } from '../../egress/policy.js';
import type { Static } from '@sinclair/typebox';
import type { Kysely, Updateable } from 'kysely';
import { toIso } from '../../http/common-schemas.js';
import { conflict, notFound } from '../../http/errors.js';
import type { PageQuery } from '../../http/pagination.js';
import { isUniqueViolation } from '../../store/executor.js';
import type { Database, OidcTokenConfigRow, OidcTokenConfigTable } from '../../store/schema.js';
import { OidcTokenConfigRepo } from './repo.js';
import type { CreateOidcTokenConfig, OIDC_ALGORITHMS, OidcTokenConfig, UpdateOidcTokenConfig } from './schemas.js';
import { demandSecureUrl } from './secure-url.js';

export type OidcTokenConfigView = Static<typeof OidcTokenConfig>;
type Algorithm = (typeof OIDC_ALGORITHMS)[number];

/**
 * The account's OIDC token configs: which issuers' ID tokens its users may exchange for access
 * tokens (exchange.ts). Names and issuers are unique per account, so a token's `iss` finds at most
 * one config. A config of another account is as missing as an unknown one.
 */
export class OidcTokenConfigService {
  readonly repo: OidcTokenConfigRepo;

  constructor(
    db: Kysely<Database>,
    private readonly egress: EgressPolicy,
  ) {
    this.repo = new OidcTokenConfigRepo(db);
  }

  async get(accountId: number, id: number): Promise<OidcTokenConfigView> {
    const row = await this.repo.find(accountId, id);
    if (!row) throw notFound(`OIDC token config ${id} not found`);
    return toView(row);
  }

  async list(accountId: number, query: PageQuery) {
    return this.repo.page(accountId, query, toView);
  }

  async create(accountId: number, input: CreateOidcTokenConfig): Promise<OidcTokenConfigView> {
    await this.demandAllowed(input);
    const row = await this.unique(input, () =>
      this.repo.insert({
        account_id: accountId,
        name: input.name,
        issuer: input.issuer,
        audiences: JSON.stringify(input.audiences),
        jwks_uri: input.jwksUri ?? null,
        user_claim: input.userClaim ?? 'email',
        algorithms: JSON.stringify(input.algorithms ?? ['RS256']),
        enabled: input.enabled ?? true,
      }),
    );
    return toView(row);
  }

  async update(accountId: number, id: number, input: UpdateOidcTokenConfig): Promise<OidcTokenConfigView> {
    await this.demandAllowed(input);
    const changes: Updateable<OidcTokenConfigTable> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.issuer !== undefined) changes.issuer = input.issuer;
    if (input.audiences !== undefined) changes.audiences = JSON.stringify(input.audiences);
    if (input.jwksUri !== undefined) changes.jwks_uri = input.jwksUri;
    if (input.userClaim !== undefined) changes.user_claim = input.userClaim;
    if (input.algorithms !== undefined) changes.algorithms = JSON.stringify(input.algorithms);
    if (input.enabled !== undefined) changes.enabled = input.enabled;
    const row = await this.unique(input, () => this.repo.update(accountId, id, changes));
    if (!row) throw notFound(`OIDC token config ${id} not found`);
    return toView(row);
  }

  /** https (or http on this machine), and never an address the server would not fetch. */
  private async demandAllowed(input: { issuer?: string; jwksUri?: string | null }): Promise<void> {
    demandSecureUrl('issuer', input.issuer);
    demandSecureUrl('jwksUri', input.jwksUri);
    await demandAllowedUrl(this.egress, 'issuer', input.issuer);
    await demandAllowedUrl(this.egress, 'jwksUri', input.jwksUri);
  }

  async delete(accountId: number, id: number): Promise<void> {
    if (!(await this.repo.delete(accountId, id))) throw notFound(`OIDC token config ${id} not found`);
  }

  /** A second config with the same name or issuer is a 409 naming both. */
  private async unique<T>(input: { name?: string; issuer?: string }, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const what = [input.name && `name "${input.name}"`, input.issuer && `issuer ${input.issuer}`].filter(Boolean).join(' or ');
      throw conflict(`An OIDC token config with this ${what} already exists in the account`);
    }
  }
}

export function toView(row: OidcTokenConfigRow): OidcTokenConfigView {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    audiences: row.audiences,
    jwksUri: row.jwks_uri,
    userClaim: row.user_claim as 'email' | 'sub',
    algorithms: row.algorithms as Algorithm[],
    enabled: row.enabled,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
