import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { notFound } from '../../http/errors.js';
import { hashCredential, randomBase62 } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';
import { OAuthError } from './oauth-error.js';
import { clientAddress, DEVICE_CODES_PER_ADDRESS } from '../rate-limits/public.js';
import { tooManyRequests, type RateLimitService } from '../rate-limits/service.js';
import { LoginRepo } from './repo.js';
import type { TokenResponse, TokenService } from './tokens.js';

/** RFC 8628 section 6.1: no vowels (no words) and no look-alike digits; 20^8 codes. */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;
export const DEVICE_PAGE_PATH = '/login/device';
export const DEVICE_CODE_PREFIX = 'pld_';

export interface DeviceSettings {
  codeTtlSeconds: number;
  intervalSeconds: number;
}

/** The device authorization grant of RFC 8628: codes, the user's decision, and polling for tokens. */
export class DeviceFlowService {
  private readonly repo: LoginRepo;
  readonly settings: DeviceSettings = { codeTtlSeconds: 600, intervalSeconds: 5 };

  constructor(
    db: Kysely<Database>,
    private readonly tokens: TokenService,
    private readonly rateLimits: RateLimitService,
  ) {
    this.repo = new LoginRepo(db);
  }

  async start(accountId: number, clientName: string | null, baseUrl: string, ip: string) {
    const verdict = await this.rateLimits.hit(DEVICE_CODES_PER_ADDRESS, clientAddress(ip));
    if (!verdict.admitted) {
      throw tooManyRequests(
        `Too many logins started from your address; try again in ${verdict.retryAfterSeconds} seconds`,
        verdict.retryAfterSeconds,
      );
    }
    const deviceCode = `${DEVICE_CODE_PREFIX}${randomBase62()}`;
    let userCode = '';
    for (let i = 0; i < USER_CODE_LENGTH; i++) userCode += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
    const { codeTtlSeconds, intervalSeconds } = this.settings;
    await this.repo.insertDevice({
      account_id: accountId,
      device_code_hash: hashCredential(deviceCode),
      user_code: userCode,
      client_name: clientName,
      interval_s: intervalSeconds,
      expires_at: new Date(Date.now() + codeTtlSeconds * 1000),
    });
    const shown = formatUserCode(userCode);
    const verificationUri = `${baseUrl}${DEVICE_PAGE_PATH}`;
    return {
      device_code: deviceCode,
      user_code: shown,
      verification_uri: verificationUri,
      verification_uri_complete: `${verificationUri}?user_code=${encodeURIComponent(shown)}`,
      expires_in: codeTtlSeconds,
      interval: intervalSeconds,
    };
  }

  /** The pending request a user code names, for the verification page to show what is approved. */
  async pending(accountId: number, userCode: string) {
    const row = await this.repo.findPendingByUserCode(accountId, normalizeUserCode(userCode));
    if (!row) throw notFound('This code is unknown, expired or already used');
    return row;
  }

  async decide(accountId: number, userCode: string, userId: number, approve: boolean): Promise<void> {
    const row = await this.pending(accountId, userCode);
    const moved = await this.repo.transition(row.id, 'pending', approve ? 'approved' : 'denied', userId);
    if (!moved) throw notFound('This code is unknown, expired or already used');
  }

  /** One poll of the token endpoint with a device code (RFC 8628 section 3.4 and 3.5). */
  async poll(accountId: number, deviceCode: string): Promise<TokenResponse> {
    const row = await this.repo.findDeviceByCode(hashCredential(deviceCode));
    if (!row || row.account_id !== accountId) throw new OAuthError('invalid_grant', 'Unknown device code');
    if (row.status === 'consumed') throw new OAuthError('invalid_grant', 'This device code was already exchanged for tokens');
    if (row.status === 'denied') throw new OAuthError('access_denied', 'The request was denied');
    if (row.status === 'pending' && row.expires_at.getTime() <= Date.now()) {
      throw new OAuthError('expired_token', 'The device code has expired; start the login again');
    }
    if (row.status === 'pending') {
      // A little slack: a client that waits exactly `interval` must not be told to slow down.
      const tooSoon = row.last_polled_at !== null && Date.now() - row.last_polled_at.getTime() < row.interval_s * 800;
      await this.repo.recordPoll(row.id, tooSoon ? row.interval_s + 5 : row.interval_s);
      if (tooSoon) throw new OAuthError('slow_down', `Polling too fast; wait ${row.interval_s + 5} seconds between requests`);
      throw new OAuthError('authorization_pending', 'Waiting for the user to approve the request');
    }
    if (!(await this.repo.transition(row.id, 'approved', 'consumed'))) {
      throw new OAuthError('invalid_grant', 'This device code was already exchanged for tokens');
    }
    return this.tokens.issue(accountId, row.user_id!, row.client_name);
  }
}

export function normalizeUserCode(input: string): string {
  return input.toUpperCase().replace(/[^A-Z]/g, '');
}

export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}
