import type { CredentialVerifier } from '../../http/auth.js';
import { unauthenticated } from '../../http/errors.js';
import type { AccessTokenPrincipal, ApiKeyPrincipal, Principal, ScimTokenPrincipal } from '../../http/principal.js';
import { hashCredential } from '../../lib/secrets.js';
import type { Role } from '../../store/schema.js';
import { grantsOfKey, grantsOfPolicies } from './grants.js';
import type { CredentialRecord, CredentialRepo } from './repo.js';

const TOUCH_EVERY_MS = 60_000;
/** How long a verified credential is trusted without asking the store again (a backstop only). */
const CACHE_MS = 5_000;
const CACHE_MAX_ENTRIES = 100_000;

interface CachedPrincipal<P extends Principal> {
  principal: P;
  /** When an access token itself expires; the cache never outlives it. */
  expiresAt: number | null;
  cachedUntil: number;
}

/**
 * Verifiers for the credential kinds this module issues. A credential of another account is
 * "unknown", exactly like one that never existed, so a probe learns nothing about other tenants.
 */
export class CredentialVerifiers {
  /** When each credential's last_used_at was last written, by credential id. */
  private readonly lastTouched = { apiKey: new Map<number, number>(), scimToken: new Map<number, number>() };
  /**
   * Verified credentials of each kind by the secret as presented. Every change that could take one
   * away empties the account's entries at once (see `forgetAccount`, wired to the store's write
   * watch and NOTIFY), so the cache saves a query per request without ever honouring a revoked
   * key. It is keyed by the secret itself, not its hash, because hashing on every request cost
   * more than the rest of the check: the secret stays in this process's memory for at most
   * CACHE_MS, as it does while its request is served; the store only ever holds hashes.
   */
  private readonly verified = {
    apiKey: new Map<string, CachedPrincipal<ApiKeyPrincipal>>(),
    accessToken: new Map<string, CachedPrincipal<AccessTokenPrincipal>>(),
    scimToken: new Map<string, CachedPrincipal<ScimTokenPrincipal>>(),
  };

  constructor(private readonly repo: CredentialRepo) {}

  apiKey: CredentialVerifier<'apiKey'> = (account, secret) => {
    const hit = this.cached(this.verified.apiKey, secret, account.id);
    if (hit) {
      this.touch('apiKey', hit.credentialId);
      return hit;
    }
    return this.apiKeyFromStore(account.id, secret);
  };

  private async apiKeyFromStore(accountId: number, secret: string): Promise<ApiKeyPrincipal> {
    const record = await this.repo.findApiKeyByHash(hashCredential(secret));
    const checked = this.check(record, accountId, 'API key');
    const own = record!.permissions;
    const principal: ApiKeyPrincipal = {
      kind: 'apiKey',
      ...checked,
      // Grants are loaded with the key, so checking them costs nothing more per request.
      permissions: own
        ? grantsOfKey(own, checked.deploymentIds ?? [], record!.user_role ?? 'member', grantsOfPolicies(record!.policies))
        : null,
    };
    this.touch('apiKey', principal.credentialId);
    return this.remember(this.verified.apiKey, secret, principal, null);
  }

  accessToken: CredentialVerifier<'accessToken'> = async (account, secret) => {
    const hit = this.cached(this.verified.accessToken, secret, account.id);
    if (hit) return hit;
    const record = await this.repo.findAccessTokenByHash(hashCredential(secret));
    // An access token acts on every deployment, with its user's role (the record carries no scope).
    const principal: AccessTokenPrincipal = {
      kind: 'accessToken',
      ...this.check(record, account.id, 'access token'),
      deploymentIds: null,
      policies: grantsOfPolicies(record!.policies),
    };
    const expiresAt = record!.expires_at ? record!.expires_at.getTime() : null;
    if (expiresAt !== null && expiresAt <= Date.now()) {
      throw unauthenticated('The access token has expired; refresh it or run `plinth login`');
    }
    return this.remember(this.verified.accessToken, secret, principal, expiresAt);
  };

  scimToken: CredentialVerifier<'scimToken'> = async (account, secret) => {
    const hit = this.cached(this.verified.scimToken, secret, account.id);
    if (hit) return hit;
    const record = await this.repo.findScimTokenByHash(hashCredential(secret));
    if (!record || record.account_id !== account.id) throw unauthenticated('Unknown SCIM token');
    if (record.revoked_at) throw unauthenticated('The SCIM token has been revoked');
    this.touch('scimToken', record.id);
    const principal: ScimTokenPrincipal = { kind: 'scimToken', accountId: account.id, credentialId: record.id };
    return this.remember(this.verified.scimToken, secret, principal, null);
  };

  forgetAccount(accountId: number): void {
    for (const cache of Object.values(this.verified)) {
      for (const [secret, entry] of cache) if (entry.principal.accountId === accountId) cache.delete(secret);
    }
  }

  forgetAll(): void {
    for (const cache of Object.values(this.verified)) cache.clear();
  }

  private cached<P extends Principal>(cache: Map<string, CachedPrincipal<P>>, secret: string, accountId: number): P | undefined {
    const entry = cache.get(secret);
    if (!entry) return undefined;
    const now = Date.now();
    if (entry.cachedUntil <= now || (entry.expiresAt !== null && entry.expiresAt <= now) || entry.principal.accountId !== accountId) {
      cache.delete(secret);
      return undefined;
    }
    return entry.principal;
  }

  private remember<P extends Principal>(cache: Map<string, CachedPrincipal<P>>, secret: string, principal: P, expiresAt: number | null): P {
    if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
    cache.set(secret, { principal, expiresAt, cachedUntil: Date.now() + CACHE_MS });
    return principal;
  }

  private check(record: CredentialRecord | undefined, accountId: number, what: string): Omit<ApiKeyPrincipal, 'kind' | 'permissions'> {
    if (!record || record.account_id !== accountId) throw unauthenticated(`Unknown ${what}`);
    if (record.revoked_at) throw unauthenticated(`The ${what} has been revoked`);
    if (record.user_active === false) throw unauthenticated(`The user of this ${what} is deactivated`);
    return {
      accountId,
      credentialId: record.id,
      // API keys and access tokens always act for a user (the column is not null).
      userId: record.user_id!,
      // A key never carries more than its user has now: demoting the user demotes the key.
      role: lowerRole(record.role, record.user_role ?? record.role),
      deploymentIds: record.deployment_ids,
    };
  }

  /** last_used_at is for people auditing keys; a write per request would cost more than it tells. */
  private touch(kind: 'apiKey' | 'scimToken', credentialId: number) {
    const lastTouched = this.lastTouched[kind];
    const now = Date.now();
    if (now - (lastTouched.get(credentialId) ?? 0) < TOUCH_EVERY_MS) return;
    lastTouched.set(credentialId, now);
    const write = kind === 'apiKey' ? this.repo.touchApiKey(credentialId) : this.repo.touchScimToken(credentialId);
    write.catch(() => lastTouched.delete(credentialId));
  }
}

function lowerRole(a: Role, b: Role): Role {
  return a === 'admin' && b === 'admin' ? 'admin' : 'member';
}
