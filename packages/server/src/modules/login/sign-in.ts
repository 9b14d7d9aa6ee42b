import { ApiError, badRequest } from '../../http/errors.js';
import { clientAddress, SIGN_IN_PER_ADDRESS, SIGN_IN_PER_EMAIL } from '../rate-limits/public.js';
import { tooManyRequests, type RateLimitService } from '../rate-limits/service.js';
import type { UserService } from '../users/service.js';
import { decoyHash, hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from './password-hash.js';

export interface SignedInUser {
  id: number;
  email: string;
}

/**
 * Passwords of internal users: set by an admin or through an invite, checked on the verification
 * page. A user without a password cannot sign in. Guessing is slowed, never stopped for good, by
 * two delays kept in the store: one per e-mail (whatever the addresses) and one per client address
 * (whatever the e-mails, against a spray). Every attempt takes a slot before the password is
 * checked, so concurrent guesses cannot all slip through; a success clears the e-mail's delay.
 */
export class SignInService {
  constructor(
    private readonly users: UserService,
    private readonly rateLimits: RateLimitService,
  ) {}

  async setPassword(accountId: number, userId: number, password: string): Promise<void> {
    assertAcceptable(password);
    await this.users.get(accountId, userId);
    await this.users.setPasswordHash(accountId, userId, await hashPassword(password));
  }

  /**
   * The user an e-mail and password name, or an error whose message is safe to show. `ip` is the
   * client's address; callers outside HTTP (tools, tests) share one bucket.
   */
  async authenticate(accountId: number, email: string, password: string, ip = 'local'): Promise<SignedInUser> {
    const address = clientAddress(ip);
    const emailKey = `${accountId}:${email.trim().toLowerCase()}`;
    const fromAddress = await this.rateLimits.attempt(SIGN_IN_PER_ADDRESS, address);
    if (!fromAddress.admitted) {
      throw tooManyRequests(
        `Too many sign-in attempts from your address; try again in ${fromAddress.retryAfterSeconds} seconds`,
        fromAddress.retryAfterSeconds,
      );
    }
    const forEmail = await this.rateLimits.attempt(SIGN_IN_PER_EMAIL, emailKey);
    if (!forEmail.admitted) {
      // No password was tried, so the address keeps its slot.
      await this.rateLimits.refund(SIGN_IN_PER_ADDRESS, address);
      throw tooManyRequests(
        `Too many failed sign-in attempts for this e-mail; try again in ${forEmail.retryAfterSeconds} seconds`,
        forEmail.retryAfterSeconds,
      );
    }
    const found = await this.users.findForSignIn(accountId, email);
    const user = found && { ...found.user, password_hash: found.passwordHash };
    const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
    if (!user || !user.password_hash || !ok || !user.active) {
      if (user && ok && !user.active) throw new ApiError('unauthenticated', 'This user is deactivated');
      throw new ApiError('unauthenticated', 'Wrong e-mail or password');
    }
    await this.rateLimits.reset(SIGN_IN_PER_EMAIL, emailKey);
    return { id: user.id, email: user.email ?? email.trim() };
  }
}

export function assertAcceptable(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw badRequest(`The password must have at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH) throw badRequest(`The password must have at most ${PASSWORD_MAX_LENGTH} characters`);
}
