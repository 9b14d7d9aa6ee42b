import type { Kysely } from 'kysely';
import { ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX } from '../../http/credential-header.js';
import { hashCredential } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';
import { ACCESS_TOKEN_TTL_S, type CredentialService } from '../credentials/service.js';
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

  constructor(db: Kysely<Database>, private readonly credentials: CredentialService) {
    this.repo = new LoginRepo(db);
  }

  async issue(accountId: number, userId: number, clientName: string | null, sessionId?: number): Promise<TokenResponse> {
    const session = sessionId ?? (await this.repo.insertSession(accountId, userId, clientName)).id;
    const issued = await this.credentials.issueAccessToken(accountId, userId, this.accessTokenTtlSeconds);
    await this.repo.linkToken(session, hashCredential(issued.accessToken));
    return {
      access_token: issued.accessToken,
      token_type: 'Bearer',
      expires_in: issued.expiresIn,
      refresh_token: issued.refreshToken,
    };
  }

  async refresh(accountId: number, refreshToken: string): Promise<TokenResponse> {
    const row = await this.repo.findByRefreshHash(accountId, hashCredential(refreshToken));
    if (!row) throw new OAuthError('invalid_grant', 'Unknown refresh token');
    const reuse = row.revoked_at !== null || row.session_revoked_at !== null || !(await this.repo.revokeTokenOnce(row.id));
    if (reuse) {
      if (row.session_id !== null) await this.repo.revokeSession(row.session_id);
      throw new OAuthError('invalid_grant', 'The refresh token was already used or revoked; the login is revoked, run `plinth login` again');
    }
    if (row.refresh_expires_at !== null && row.refresh_expires_at.getTime() <= Date.now()) {
      throw new OAuthError('invalid_grant', 'The refresh token has expired; run `plinth login` again');
    }
    if (row.user_active === false) throw new OAuthError('invalid_grant', 'The user of this login is deactivated');
    return this.issue(accountId, row.user_id, row.client_name ?? null, row.session_id ?? undefined);
  }

  /**
   * RFC 7009: revokes the login session an access or refresh token belongs to. Unknown tokens are
   * not an error, so the answer tells a caller nothing about tokens it does not hold.
   */
  async revoke(accountId: number, token: string): Promise<void> {
    const hash = hashCredential(token);
    const row = token.startsWith(REFRESH_TOKEN_PREFIX)
      ? await this.repo.findByRefreshHash(accountId, hash)
      : token.startsWith(ACCESS_TOKEN_PREFIX)
        ? await this.repo.findByAccessHash(accountId, hash)
        : undefined;
    if (!row) return;
    if (row.session_id !== null) await this.repo.revokeSession(row.session_id);
    else await this.repo.revokeToken(row.id);
  }
}
