import { clientAddress, OIDC_EXCHANGES_PER_ADDRESS } from '../rate-limits/public.js';
import type { RateLimitService } from '../rate-limits/service.js';
import { decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import type { CredentialService } from '../credentials/service.js';
import { ACCESS_TOKEN_TTL_S } from '../credentials/service.js';
import type { UserRecord, UserService } from '../users/service.js';
import { ExchangeError } from './exchange-error.js';
import type { IssuerKeys } from './issuer-keys.js';
import type { OidcTokenConfigRepo } from './repo.js';
import { ACCESS_TOKEN_TYPE, SUBJECT_TOKEN_TYPES, TOKEN_EXCHANGE_GRANT, type OidcTokenExchange } from './schemas.js';
import { toView, type OidcTokenConfigView } from './service.js';

/** Clock skew allowed between the issuer and this server for `exp`, `nbf` and `iat`. */
const CLOCK_TOLERANCE_S = 30;

/** Said for every token that names no active user, so the answer never tells a missing user from a deactivated one. */
const NO_USER = 'No active user of this account matches the subject token';

/**
 * RFC 8693 token exchange: an ID token of an issuer the account trusts (an enabled OIDC token
 * config) becomes a Plinth access token of the user it names. The token is verified against the
 * issuer's keys, its `iss`, `aud`, `exp` and `nbf`, and the config's algorithms; the user is found
 * by the config's claim and must be active. The access token is minted as a login's are, with
 * the same lifetime, and no refresh token: exchanging a fresh ID token renews it.
 */
export class OidcTokenExchanger {
  constructor(
    private readonly configs: OidcTokenConfigRepo,
    readonly keys: IssuerKeys,
    private readonly users: UserService,
    private readonly credentials: CredentialService,
    private readonly rateLimits: RateLimitService,
  ) {}

  /** `ip` is the client's address: its failed exchanges are slowed down as failed sign-ins are. */
  async exchange(accountId: number, request: OidcTokenExchange, ip = 'local') {
    const key = `${accountId}|${clientAddress(ip)}`;
    const verdict = await this.rateLimits.attempt(OIDC_EXCHANGES_PER_ADDRESS, key);
    if (!verdict.admitted) {
      const wait = verdict.retryAfterSeconds;
      throw new ExchangeError(
        'temporarily_unavailable',
        `Too many failed token exchanges from your address; try again in ${wait} seconds`,
        wait,
      );
    }
    const issued = await this.verified(accountId, request);
    // Only failures count: a client exchanging a valid token at every login is never slowed down.
    await this.rateLimits.refund(OIDC_EXCHANGES_PER_ADDRESS, key);
    return issued;
  }

  private async verified(accountId: number, request: OidcTokenExchange) {
    const subjectToken = checkRequest(request);
    const config = await this.configFor(accountId, subjectToken);
    const payload = await this.verify(config, subjectToken);
    const user = await this.userOf(accountId, config, payload);
    const issued = await this.credentials.issueAccessToken(accountId, user.id, ACCESS_TOKEN_TTL_S);
    return {
      access_token: issued.accessToken,
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_type: 'Bearer' as const,
      expires_in: issued.expiresIn,
    };
  }

  /** The enabled config of the token's issuer, read from the token before its signature is checked (to pick the keys). */
  private async configFor(accountId: number, token: string): Promise<OidcTokenConfigView> {
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw new ExchangeError('invalid_grant', 'subject_token is not a JWT');
    }
    if (typeof issuer !== 'string') throw new ExchangeError('invalid_grant', 'The subject token has no iss claim');
    const row = await this.configs.enabledByIssuer(accountId, issuer);
    if (!row) throw new ExchangeError('invalid_grant', 'The subject token was issued by an issuer this account does not trust');
    return toView(row);
  }

  private async verify(config: OidcTokenConfigView, token: string): Promise<JWTPayload> {
    const keys = await this.keys.forIssuer(config.issuer, config.jwksUri);
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: config.issuer,
        audience: config.audiences,
        algorithms: config.algorithms,
        requiredClaims: ['exp', config.userClaim],
        clockTolerance: CLOCK_TOLERANCE_S,
      });
      return payload;
    } catch (error) {
      throw refusal(error);
    }
  }

  private async userOf(accountId: number, config: OidcTokenConfigView, payload: JWTPayload): Promise<UserRecord> {
    const value = payload[config.userClaim];
    if (typeof value !== 'string' || value === '') {
      throw new ExchangeError('invalid_grant', `The subject token's ${config.userClaim} claim is not a string`);
    }
    if (config.userClaim === 'email' && payload.email_verified === false) {
      throw new ExchangeError('invalid_grant', "The subject token's e-mail address is not verified by its issuer");
    }
    const user =
      config.userClaim === 'email' ? await this.users.findByEmail(accountId, value) : await this.users.findByExternalId(accountId, value);
    if (!user?.active) throw new ExchangeError('invalid_grant', NO_USER);
    return user;
  }
}

function checkRequest(request: OidcTokenExchange): string {
  if (!request.grant_type) throw new ExchangeError('invalid_request', 'grant_type is required');
  if (request.grant_type !== TOKEN_EXCHANGE_GRANT) {
    throw new ExchangeError('unsupported_grant_type', `Unsupported grant_type "${request.grant_type}"; use ${TOKEN_EXCHANGE_GRANT}`);
  }
  if (!request.subject_token) throw new ExchangeError('invalid_request', 'subject_token is required');
  if (!request.subject_token_type) throw new ExchangeError('invalid_request', 'subject_token_type is required');
  if (!SUBJECT_TOKEN_TYPES.includes(request.subject_token_type)) {
    throw new ExchangeError('invalid_request', `subject_token_type must be ${SUBJECT_TOKEN_TYPES.join(' or ')}`);
  }
  if (request.requested_token_type !== undefined && request.requested_token_type !== ACCESS_TOKEN_TYPE) {
    throw new ExchangeError('invalid_request', `requested_token_type must be ${ACCESS_TOKEN_TYPE}, the only kind issued`);
  }
  return request.subject_token;
}

/** jose's verdict on the token, told to the caller (it holds the token); failures to reach the issuer are not its fault. */
function refusal(error: unknown): ExchangeError {
  if (error instanceof ExchangeError) return error;
  if (error instanceof errors.JWTExpired) return new ExchangeError('invalid_grant', 'The subject token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new ExchangeError('invalid_grant', `The subject token's ${error.claim} claim is not accepted: ${error.message}`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return new ExchangeError('invalid_grant', 'The subject token is signed with an algorithm this config does not allow');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return new ExchangeError('invalid_grant', "The subject token's signature does not verify with the issuer's keys");
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSENotSupported) {
    return new ExchangeError('invalid_grant', `The subject token is malformed: ${error.message}`);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new ExchangeError('temporarily_unavailable', `The issuer's keys could not be fetched: ${detail}`);
}
