import type { Kysely } from 'kysely';
import { ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX } from '../../http/credential-header.js';
import type { Database } from '../../store/schema.js';
import { ACCESS_TOKEN_TTL_S, type CredentialService } from '../credentials/service.js';
import type { UserService } from '../users/service.js';
import { OAuthError } from './oauth-error.js';
import { LoginRepo } from './repo.js';

/** The token response of RFC 6749 section 5.1. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

/**
 * Access and refresh tokens of a login. Every login is a session; each refresh revokes the token
 * pair it was given and issues a new one in the same session (rotation). Presenting a refresh token
 * that was already rotated or revoked means it leaked or was replayed, so the whole session is
 * revoked (RFC 6819 5.2.2.3; OAuth 2.0 Security BCP 4.14).
 */
export class TokenService {
  private readonly repo: LoginRepo;
  accessTokenTtlSeconds = ACCESS_TOKEN_TTL_S;

  constructor(
    db: Kysely<Database>,
    private readonly credentials: CredentialService,
    private readonly users: UserService,
  ) {
    this.repo = new LoginRepo(db);
  }

  async issue(accountId: number, userId: number, clientName: string | null, sessionId?: number): Promise<TokenResponse> {
    const session = sessionId ?? (await this.repo.insertSession(accountId, userId, clientName)).id;
    // A new session is a sign-in; a refresh (same session) is not.
    if (sessionId === undefined) await this.users.recordLogin(accountId, userId);
    const issued = await this.credentials.issueAccessToken(accountId, userId, this.accessTokenTtlSeconds);
    await this.repo.linkToken(session, issued.id);
    return {
      access_token: issued.accessToken,
      token_type: 'Bearer',
      expires_in: issued.expiresIn,
      refresh_token: issued.refreshToken,
    };
  }

  async refresh(accountId: number, refreshToken: string): Promise<TokenResponse> {
    const token = await this.credentials.findByRefreshToken(accountId, refreshToken);
    if (!token) throw new OAuthError('invalid_grant', 'Unknown refresh token');
    const session = await this.repo.sessionOfToken(token.id);
    const reuse =
      token.revokedAt !== null ||
      (session?.revokedAt ?? null) !== null ||
      !(await this.credentials.revokeAccessTokenOnce(accountId, token.id));
    if (reuse) {
      if (session) await this.revokeSession(accountId, session.sessionId);
      throw new OAuthError(
        'invalid_grant',
        'The refresh token was already used or revoked; the login is revoked, run `plinth login` again',
      );
    }
    if (token.refreshExpiresAt !== null && token.refreshExpiresAt.getTime() <= Date.now()) {
      throw new OAuthError('invalid_grant', 'The refresh token has expired; run `plinth login` again');
    }
    const user = await this.users.find(accountId, token.userId);
    if (!user?.active) throw new OAuthError('invalid_grant', 'The user of this login is deactivated');
    return this.issue(accountId, token.userId, session?.clientName ?? null, session?.sessionId);
  }

  /**
   * RFC 7009: revokes the login session an access or refresh token belongs to. Unknown tokens are
   * not an error, so the answer tells a caller nothing about tokens it does not hold.
   */
  async revoke(accountId: number, token: string): Promise<void> {
    const tokenId = token.startsWith(REFRESH_TOKEN_PREFIX)
      ? (await this.credentials.findByRefreshToken(accountId, token))?.id
      : token.startsWith(ACCESS_TOKEN_PREFIX)
        ? await this.credentials.findAccessTokenId(accountId, token)
        : undefined;
    if (tokenId === undefined) return;
    const session = await this.repo.sessionOfToken(tokenId);
    if (session) await this.revokeSession(accountId, session.sessionId);
    else await this.credentials.revokeAccessTokens(accountId, [tokenId]);
  }

  private async revokeSession(accountId: number, sessionId: number): Promise<void> {
    await this.credentials.revokeAccessTokens(accountId, await this.repo.revokeSession(sessionId));
  }
}
