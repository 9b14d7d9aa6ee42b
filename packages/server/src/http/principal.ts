import type { Permission } from './permissions.js';
import type { Role } from '../store/schema.js';
import type { VerifiedEmbedToken } from '../modules/embed/tokens.js';

/** The kinds of credential of DESIGN.md's table; the scheme of the Authorization header picks one. */
export type CredentialKind = 'apiKey' | 'accessToken' | 'scimToken' | 'dataToken' | 'embedToken';

export const credentialLabel: Record<CredentialKind, string> = {
  apiKey: 'an API key (Authorization: Api-Key <key>)',
  accessToken: 'an access token (Authorization: Bearer <token>)',
  scimToken: 'a SCIM token (Authorization: Bearer <token>)',
  dataToken: 'a data API token (Authorization: <token>)',
  embedToken: 'an embed token (Authorization: <token>)',
};

/**
 * Permissions held on the account's deployments, beside or instead of a role: `everywhere` on
 * every deployment and the account itself, `byDeployment` on one deployment each. Sets are already
 * closed under the implication table (permissions.ts `implied`).
 */
export interface Grants {
  everywhere: ReadonlySet<Permission>;
  byDeployment: ReadonlyMap<number, ReadonlySet<Permission>>;
}

/**
 * An API key acts for its user, with a role no higher than the user's and maybe limited to
 * deployments; or, when created with `permissions`, with exactly those on its deployments (never
 * more than its user holds there now) and nothing of its role.
 */
export interface ApiKeyPrincipal {
  kind: 'apiKey';
  accountId: number;
  credentialId: number;
  userId: number;
  role: Role;
  /** Deployments the key is limited to; null means every deployment of the account. */
  deploymentIds: readonly number[] | null;
  /** The key's own permissions, replacing its role's; null (or absent) for a key that holds its role's. */
  permissions?: Grants | null;
}

/**
 * An access token of `plinth login` acts for its user with the user's role, on every deployment,
 * plus what the resource policies of the user and of the user's groups grant.
 */
export interface AccessTokenPrincipal {
  kind: 'accessToken';
  accountId: number;
  credentialId: number;
  userId: number;
  role: Role;
  deploymentIds: null;
  /** What resource policies add to the role; null when none does (the usual case, checked at no cost). */
  policies?: Grants | null;
}

/** A SCIM token provisions users and groups; it acts for no user. */
export interface ScimTokenPrincipal {
  kind: 'scimToken';
  accountId: number;
  credentialId: number;
}

/** What a data API token says (issue 14 adds its verifier): one deployment and a security context. */
export interface DataTokenClaims {
  deploymentId: number;
  /** The security context the data API evaluates access policies with; JSON the token's issuer chose. */
  securityContext: Readonly<Record<string, unknown>>;
  /** Seconds since the epoch, or null for a token without `exp`. */
  expiresAt: number | null;
  /** An environment token's environment (its branch's id): the data API serves it that branch only. */
  environment?: string;
}

export interface DataTokenPrincipal {
  kind: 'dataToken';
  accountId: number;
  claims: DataTokenClaims;
}

/** An embed token (issue 14 adds its verifier): what its session was minted with. */
export interface EmbedTokenPrincipal {
  kind: 'embedToken';
  accountId: number;
  claims: VerifiedEmbedToken;
}

/** Who is calling, once a credential has been verified for the request's account. */
export type Principal = ApiKeyPrincipal | AccessTokenPrincipal | ScimTokenPrincipal | DataTokenPrincipal | EmbedTokenPrincipal;

/** The credentials that act for an internal user of the account (the platform API's callers). */
export type UserPrincipal = ApiKeyPrincipal | AccessTokenPrincipal;

/**
 * The credentials that act on workspace content: a user's, or an embed token, which reaches only
 * its embed tenant's content and only in creator mode (resource-policies/content-access.ts).
 */
export type ContentPrincipal = UserPrincipal | EmbedTokenPrincipal;

export type PrincipalOf<K extends CredentialKind> = Extract<Principal, { kind: K }>;

export const PLATFORM_CREDENTIALS = ['accessToken', 'apiKey'] as const satisfies readonly CredentialKind[];
/**
 * The workspace operations creator mode uses: the platform's credentials and embed tokens, which
 * arrive as bare JWTs under the dataToken kind (deployment-tokens/verifier.ts). A data API token
 * proper holds none of their permissions and is refused.
 */
export const CONTENT_CREDENTIALS = ['dataToken', ...PLATFORM_CREDENTIALS] as const satisfies readonly CredentialKind[];
export const API_KEY_ONLY = ['apiKey'] as const satisfies readonly CredentialKind[];
export const SCIM_ONLY = ['scimToken'] as const satisfies readonly CredentialKind[];
