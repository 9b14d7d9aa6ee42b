import type { Role } from '../store/schema.js';

/** The kinds of credential of DESIGN.md's table; the scheme of the Authorization header picks one. */
export type CredentialKind = 'apiKey' | 'accessToken' | 'scimToken' | 'dataToken';

export const credentialLabel: Record<CredentialKind, string> = {
  apiKey: 'an API key (Authorization: Api-Key <key>)',
  accessToken: 'an access token (Authorization: Bearer <token>)',
  scimToken: 'a SCIM token (Authorization: Bearer <token>)',
  dataToken: 'a data API token (Authorization: <token>)',
};

/** Who is calling, once a credential has been verified for the request's account. */
export interface Principal {
  kind: CredentialKind;
  accountId: number;
  credentialId: number;
  /** The internal user the credential acts for (null for SCIM and data API tokens). */
  userId: number | null;
  role: Role;
  /** Deployments an API key is limited to; null means every deployment of the account. */
  deploymentIds: number[] | null;
  /** Extra claims a verifier wants to hand the route (e.g. a data API token's deployment). */
  claims?: Record<string, unknown>;
}

/** What a route declares about its callers; it also generates the route's `security` in the spec. */
export type RouteAuth = 'public' | { kinds: readonly CredentialKind[]; role?: Role };

export const PLATFORM_CREDENTIALS = ['accessToken', 'apiKey'] as const satisfies readonly CredentialKind[];
export const API_KEY_ONLY = ['apiKey'] as const satisfies readonly CredentialKind[];
export const SCIM_ONLY = ['scimToken'] as const satisfies readonly CredentialKind[];
