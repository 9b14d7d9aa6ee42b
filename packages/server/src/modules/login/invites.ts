import type { Kysely } from 'kysely';
import { badRequest, notFound } from '../../http/errors.js';
import { hashCredential, randomBase62 } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';
import type { UserService } from '../users/service.js';
import { hashPassword } from './password-hash.js';
import { LoginRepo } from './repo.js';
import { assertAcceptable } from './sign-in.js';

export const INVITE_TTL_S = 7 * 24 * 3600;
export const INVITE_PREFIX = 'pli_';
export const INVITE_PAGE_PATH = '/login/invite';

/**
 * One-time invite links: an admin creates one for an internal user; whoever opens it sets that
 * user's password once. Only the token's hash is stored; a new invite does not cancel older ones,
 * but each works once and expires after seven days.
 */
export class InviteService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UserService,
  ) {}

  async create(accountId: number, userId: number, createdBy: number | null, baseUrl: string) {
    const user = await this.users.get(accountId, userId);
    if (!user.active) throw badRequest(`User ${userId} is deactivated`);
    if (user.email === null) throw badRequest(`User ${userId} has no e-mail address to sign in with`);
    const token = `${INVITE_PREFIX}${randomBase62()}`;
    const expiresAt = new Date(Date.now() + INVITE_TTL_S * 1000);
    await new LoginRepo(this.db).purgeInvites();
    await this.db
      .insertInto('user_invite')
      .values({
        account_id: accountId,
        user_id: userId,
        token_hash: hashCredential(token),
        created_by_user_id: createdBy,
        expires_at: expiresAt,
      })
      .execute();
    return {
      userId,
      email: user.email,
      token,
      url: `${baseUrl}${INVITE_PAGE_PATH}?token=${encodeURIComponent(token)}`,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /** The e-mail an unused, unexpired invite is for; an error when it cannot be used. */
  async describe(accountId: number, token: string): Promise<{ email: string }> {
    const invite = await this.find(accountId, token);
    return { email: invite.email };
  }

  async accept(accountId: number, token: string, password: string): Promise<{ email: string }> {
    assertAcceptable(password);
    const invite = await this.find(accountId, token);
    const hash = await hashPassword(password);
    // Marking the invite used first makes it single-use even when two requests race.
    const claimed = await this.db
      .updateTable('user_invite')
      .set({ used_at: new Date() })
      .where('id', '=', invite.id)
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!claimed) throw badRequest('This invite link has already been used');
    await this.users.setPasswordHash(accountId, invite.user_id, hash);
    return { email: invite.email };
  }

  private async find(accountId: number, token: string) {
    const invite = await this.db
      .selectFrom('user_invite')
      .select(['id', 'user_id', 'used_at', 'expires_at'])
      .where('account_id', '=', accountId)
      .where('token_hash', '=', hashCredential(token))
      .executeTakeFirst();
    const user = invite && (await this.users.find(accountId, invite.user_id));
    if (!invite || !user) throw notFound('This invite link is not valid');
    if (invite.used_at) throw badRequest('This invite link has already been used');
    if (invite.expires_at.getTime() <= Date.now()) throw badRequest('This invite link has expired; ask an admin for a new one');
    if (!user.active) throw badRequest('This user is deactivated');
    if (user.email === null) throw badRequest('This user has no e-mail address to sign in with');
    return { ...invite, email: user.email };
  }
}
