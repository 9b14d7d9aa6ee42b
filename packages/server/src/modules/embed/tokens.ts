import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import { forbidden, unauthenticated } from '../../http/errors.js';
import type { SecretBox } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';
import type { EmbedThemeOverrides } from './omitted.js';
import { keepSigningSecret, signingSecret } from '../embed-tenants/public.js';

export const TOKEN_ISSUER = 'plinth';
export const TOKEN_AUDIENCE = 'plinth-embed';
export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;
/** How long a minted session may wait for its exchange (DESIGN.md credentials table). */
export const SESSION_EXCHANGE_WINDOW_MS = 5 * 60 * 1000;

export type EmbedTokenUser =
  | {
      type: 'external';
      externalId: string;
      email: string | null;
      userProfile: { displayName: string | null; picture: string | null };
      /** Ephemeral users only: when the user stops existing; the token expires no later. */
      expiresAt?: string;
    }
  | { type: 'internal'; id: number; email: string };

/** What an embed token says, fixed when its session was minted (DESIGN.md: embed session → embed token). */
export interface EmbedClaims {
  accountId: number;
  deploymentId: number;
  embedTenant: string;
  user: EmbedTokenUser;
  groups: string[];
  userAttributes: Record<string, unknown>;
  securityContext: Record<string, unknown> | null;
  settings: { showDashboardChat: boolean };
  creatorMode: boolean;
  /** The embedded user's roles, for the data API's security context (see dataSecurityContext). */
  roles: string[];
  /** When set, the only dashboard the token may open. */
  publicDashboardId: string | null;
  embedTheme: EmbedThemeOverrides | null;
}

/**
 * What the data API passes to the semantic layer for an embed token: the caller's securityContext
 * as sent, with the user's roles, groups and attribute values beside it (not merged into it, so a
 * securityContext of the caller's own that has a `roles` key keeps it).
 */
export function dataSecurityContext(claims: EmbedClaims) {
  return {
    securityContext: claims.securityContext ?? {},
    roles: claims.roles ?? [],
    groups: claims.groups,
    userAttributes: claims.userAttributes,
  };
}

/** A token minted for one dashboard opens that one only; other tokens open any dashboard of their deployment. */
export function assertMayOpenDashboard(claims: Pick<EmbedClaims, 'publicDashboardId'>, dashboardId: string): void {
  const only = claims.publicDashboardId ?? null;
  if (only !== null && only !== dashboardId) {
    throw forbidden(`This embed token may open only dashboard ${JSON.stringify(only)}, not ${JSON.stringify(dashboardId)}`);
  }
}

/** A token whose signature checked out: its claims plus the session it names and its registered times. */
export interface SignedEmbedToken extends EmbedClaims {
  sessionId: number;
  issuedAt: number;
  expiresAt: number;
}

/**
 * A verified token: what it was signed with, and the id of its session's embed tenant (read from
 * the session, not the token), which creator-mode content is scoped by.
 */
export interface VerifiedEmbedToken extends SignedEmbedToken {
  embedTenantId: number;
}

/**
 * Per-account HS256 keys. A key is generated on the account's first use, stored sealed, and kept
 * in memory afterwards: it never changes, and every exchange and verification needs it.
 */
export class EmbedSigningKeys {
  private readonly keys = new Map<number, Uint8Array>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
  ) {}

  async key(accountId: number): Promise<Uint8Array> {
    const cached = this.keys.get(accountId);
    if (cached) return cached;
    const sealed =
      (await signingSecret(this.db, accountId)) ??
      (await keepSigningSecret(this.db, accountId, this.secrets.seal(randomBytes(32).toString('base64url'))));
    const key = new Uint8Array(Buffer.from(this.secrets.open(sealed), 'base64url'));
    this.keys.set(accountId, key);
    return key;
  }

  async sign(claims: EmbedClaims, sessionId: number, subject: string): Promise<string> {
    const lifetimeEnd = Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_SECONDS;
    // An ephemeral user's token never outlives the user.
    const userEnd =
      claims.user.type === 'external' && claims.user.expiresAt ? Math.floor(Date.parse(claims.user.expiresAt) / 1000) : Infinity;
    return new SignJWT({ ...claims, sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime(Math.min(lifetimeEnd, userEnd))
      .sign(await this.key(claims.accountId));
  }

  /** Signature, issuer, audience, expiry and account; the caller checks the session. */
  async verify(accountId: number, token: string): Promise<SignedEmbedToken> {
    try {
      const { payload } = await jwtVerify(token, await this.key(accountId), {
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        algorithms: ['HS256'],
      });
      if (payload.accountId !== accountId || typeof payload.sid !== 'number') throw unauthenticated('Invalid embed token');
      const { sid, iat, exp, iss: _i, aud: _a, sub: _s, nbf: _n, jti: _j, ...claims } = payload;
      return { ...(claims as unknown as EmbedClaims), sessionId: sid, issuedAt: iat!, expiresAt: exp! };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw unauthenticated('The embed token has expired');
      if (error instanceof joseErrors.JOSEError) throw unauthenticated('Invalid embed token');
      throw error;
    }
  }
}
