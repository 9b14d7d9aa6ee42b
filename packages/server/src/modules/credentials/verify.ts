import type { CredentialVerifier } from '../../http/auth.js';
import { unauthenticated } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { hashCredential } from '../../lib/secrets.js';
import type { Role } from '../../store/schema.js';
import type { CredentialRecord, CredentialRepo } from './repo.js';

const TOUCH_EVERY_MS = 60_000;

/**
 * Verifiers for the credential kinds this module issues. A credential of another account is
 * "unknown", exactly like one that never existed, so a probe learns nothing about other tenants.
 */
export class CredentialVerifiers {
  private readonly lastTouched = new Map<string, number>();

  constructor(private readonly repo: CredentialRepo) {}

  apiKey: CredentialVerifier = async (account, secret) => {
    const hash = hashCredential(secret);
    const record = await this.repo.findApiKeyByHash(hash);
    const principal = this.check(record, account.id, 'API key');
    this.touch(`k${principal.credentialId}`, () => this.repo.touchApiKey(principal.credentialId));
    return { ...principal, kind: 'apiKey' };
  };

  accessToken: CredentialVerifier = async (account, secret) => {
    const record = await this.repo.findAccessTokenByHash(hashCredential(secret));
    const principal = this.check(record, account.id, 'access token');
    if (record!.expires_at && record!.expires_at.getTime() <= Date.now()) {
      throw unauthenticated('The access token has expired; refresh it or run `plinth login`');
    }
    return { ...principal, kind: 'accessToken' };
  };

  scimToken: CredentialVerifier = async (account, secret) => {
    const record = await this.repo.findScimTokenByHash(hashCredential(secret));
    if (!record || record.account_id !== account.id) throw unauthenticated('Unknown SCIM token');
    if (record.revoked_at) throw unauthenticated('The SCIM token has been revoked');
    this.touch(`s${record.id}`, () => this.repo.touchScimToken(record.id));
    return { kind: 'scimToken', accountId: account.id, credentialId: record.id, userId: null, role: 'admin', deploymentIds: null };
  };

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

