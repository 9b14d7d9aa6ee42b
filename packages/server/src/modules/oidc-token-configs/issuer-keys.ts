import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { egressFetch } from '../../egress/fetch.js';
import type { EgressPolicy } from '../../egress/policy.js';
import { ExchangeError } from './exchange-error.js';
import { isSecureUrl } from './secure-url.js';

/** How long discovery documents and key sets are kept before they are fetched again. */
export const KEYS_TTL_MS = 10 * 60_000;
const FETCH_TIMEOUT_MS = 5_000;

interface Kept<T> {
  value: T;
  until: number;
}

/**
 * The signing keys of issuers, fetched from their JWKS (named by the config, or by the issuer's
 * OpenID discovery document) and kept for KEYS_TTL_MS, so an exchange costs no round trip to the
 * issuer in the usual case. jose's key set refetches on its own when a token names a key it does
 * not hold (the issuer rotated), at most once per cooldown.
 */
export class IssuerKeys {
  private readonly sets = new Map<string, Kept<JWTVerifyGetKey>>();
  private readonly discovered = new Map<string, Kept<string>>();

  /** Issuers and their key sets are tenant-chosen URLs: every fetch goes through the egress policy. */
  constructor(private readonly egress: EgressPolicy) {}

  async forIssuer(issuer: string, jwksUri: string | null): Promise<JWTVerifyGetKey> {
    const uri = jwksUri ?? (await this.discover(issuer));
    const kept = this.sets.get(uri);
    if (kept && kept.until > Date.now()) return kept.value;
    const value = createRemoteJWKSet(new URL(uri), {
      timeoutDuration: FETCH_TIMEOUT_MS,
      cacheMaxAge: KEYS_TTL_MS,
      [customFetch]: (url, init) => egressFetch(this.egress, "The issuer's key set", url, init),
    });
    this.sets.set(uri, { value, until: Date.now() + KEYS_TTL_MS });
    return value;
  }

  /** OpenID Connect Discovery 1.0 section 4: the document must name the very issuer it was fetched for. */
  private async discover(issuer: string): Promise<string> {
    const kept = this.discovered.get(issuer);
    if (kept && kept.until > Date.now()) return kept.value;
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    let document: { issuer?: unknown; jwks_uri?: unknown };
    try {
      const init = { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' } as const;
      const response = await egressFetch(this.egress, "The issuer's discovery document", url, init);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      document = (await response.json()) as typeof document;
    } catch (error) {
      throw new ExchangeError('temporarily_unavailable', `The issuer's discovery document ${url} could not be read: ${reason(error)}`);
    }
    if (document.issuer !== issuer) {
      throw new ExchangeError('temporarily_unavailable', `The discovery document at ${url} names another issuer`);
    }
    if (typeof document.jwks_uri !== 'string' || !isSecureUrl(document.jwks_uri)) {
      throw new ExchangeError('temporarily_unavailable', `The discovery document at ${url} names no https jwks_uri`);
    }
    this.discovered.set(issuer, { value: document.jwks_uri, until: Date.now() + KEYS_TTL_MS });
    return document.jwks_uri;
  }

  /** Forgets everything fetched (an admin changed a config, or a test restarts its issuer). */
  clear(): void {
    this.sets.clear();
    this.discovered.clear();
  }
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
