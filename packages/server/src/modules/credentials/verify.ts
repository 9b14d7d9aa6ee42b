import type { CredentialVerifier } from '../../http/auth.js';
import { unauthenticated } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { hashCredential } from '../../lib/secrets.js';
import type { Role } from '../../store/schema.js';
import type { CredentialRecord, CredentialRepo } from './repo.js';

const TOUCH_EVERY_MS = 60_000;
/** How long a verified credential is trusted without asking the store again (a backstop only). */
const CACHE_MS = 5_000;
const CACHE_MAX_ENTRIES = 100_000;

/** What a change to these columns can take away from a credential; mirrored by migration 0002's triggers. */
export const CREDENTIAL_WRITES = {
  api_key: ['revoked_at', 'role', 'deployment_ids', 'user_id', 'key_hash'],
  access_token: ['revoked_at', 'expires_at', 'token_hash', 'user_id'],
  scim_token: ['revoked_at', 'token_hash'],
  app_user: ['active', 'role', 'account_id'],
} as const;

interface CachedPrincipal {
  principal: Principal;
  /** When an access token itself expires; the cache never outlives it. */
  expiresAt: number | null;
  cachedUntil: number;
}

/**
 * Verifiers for the credential kinds this module issues. A credential of another account is
 * "unknown", exactly like one that never existed, so a probe learns nothing about other tenants.
 */
export class CredentialVerifiers {
  private readonly lastTouched = new Map<string, number>();
  /**
   * Verified credentials by hash. Every change that could take one away empties the account's
   * entries at once (see `forgetAccount`, wired to the store's write watch and NOTIFY), so the
   * cache saves a query per request without ever honouring a revoked key.
   */
  private readonly verified = new Map<string, CachedPrincipal>();

  constructor(private readonly repo: CredentialRepo) {}

  apiKey: CredentialVerifier = (account, secret) => {
    const hash = hashCredential(secret);
    const hit = this.cached(`k${hash}`, account.id);
    if (hit) {
      this.touch(`k${hit.credentialId}`, () => this.repo.touchApiKey(hit.credentialId));
      return hit;
    }
    return this.apiKeyFromStore(account.id, hash);
  };

  private async apiKeyFromStore(accountId: number, hash: string): Promise<Principal> {
    const principal = { ...this.check(await this.repo.findApiKeyByHash(hash), accountId, 'API key'), kind: 'apiKey' as const };
    this.touch(`k${principal.credentialId}`, () => this.repo.touchApiKey(principal.credentialId));
    return this.remember(`k${hash}`, principal, null);
  }

  accessToken: CredentialVerifier = async (account, secret) => {
    const hash = hashCredential(secret);
    const hit = this.cached(`a${hash}`, account.id);
    if (hit) return hit;
    const record = await this.repo.findAccessTokenByHash(hash);
    const principal = this.check(record, account.id, 'access token');
    const expiresAt = record!.expires_at ? record!.expires_at.getTime() : null;
    if (expiresAt !== null && expiresAt <= Date.now()) {
      throw unauthenticated('The access token has expired; refresh it or run `plinth login`');
    }
    return this.remember(`a${hash}`, { ...principal, kind: 'accessToken' }, expiresAt);
  };

  scimToken: CredentialVerifier = async (account, secret) => {
    const hash = hashCredential(secret);
    const hit = this.cached(`s${hash}`, account.id);
    if (hit) return hit;
    const record = await this.repo.findScimTokenByHash(hash);
    if (!record || record.account_id !== account.id) throw unauthenticated('Unknown SCIM token');
    if (record.revoked_at) throw unauthenticated('The SCIM token has been revoked');
    this.touch(`s${record.id}`, () => this.repo.touchScimToken(record.id));
    const principal: Principal = {
      kind: 'scimToken', accountId: account.id, credentialId: record.id, userId: null, role: 'admin', deploymentIds: null,
    };
    return this.remember(`s${hash}`, principal, null);
  };

  forgetAccount(accountId: number): void {
    for (const [key, entry] of this.verified) if (entry.principal.accountId === accountId) this.verified.delete(key);
  }

  forgetAll(): void {
    this.verified.clear();
  }

  private cached(key: string, accountId: number): Principal | undefined {
    const entry = this.verified.get(key);
    if (!entry) return undefined;
    const now = Date.now();
    if (entry.cachedUntil <= now || (entry.expiresAt !== null && entry.expiresAt <= now) || entry.principal.accountId !== accountId) {
      this.verified.delete(key);
      return undefined;
    }
    return entry.principal;
  }

  private remember(key: string, principal: Principal, expiresAt: number | null): Principal {
    if (this.verified.size >= CACHE_MAX_ENTRIES) this.verified.clear();
    this.verified.set(key, { principal, expiresAt, cachedUntil: Date.now() + CACHE_MS });
    return principal;
  }

  private check(record: CredentialRecord | undefined, accountId: number, what: string): Omit<Principal, 'kind'> {
    if (!record || record.account_id !== accountId) throw unauthenticated(`Unknown ${what}`);
    if (record.revoked_at) throw unauthenticated(`The ${what} has been revoked`);
    if (record.user_active === false) throw unauthenticated(`The user of this ${what} is deactivated`);
    return {
      accountId,
      credentialId: record.id,
      userId: record.user_id,
      // A key never carries more than its user has now: demoting the user demotes the key.
      role: lowerRole(record.role, record.user_role ?? record.role),
      deploymentIds: record.deployment_ids,
    };
  }

  /** last_used_at is for people auditing keys; a write per request would cost more than it tells. */
  private touch(key: string, write: () => Promise<unknown>) {
    const now = Date.now();
    if (now - (this.lastTouched.get(key) ?? 0) < TOUCH_EVERY_MS) return;
    this.lastTouched.set(key, now);
    write().catch(() => this.lastTouched.delete(key));
  }
}

function lowerRole(a: Role, b: Role): Role {
  return a === 'admin' && b === 'admin' ? 'admin' : 'member';
}

