import { ApiError, badRequest } from '../../http/errors.js';
import type { UserService } from '../users/service.js';
import { decoyHash, hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from './password-hash.js';

const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES = 10;

export interface SignedInUser {
  id: number;
  email: string;
}

/**
 * Passwords of internal users: set by an admin or through an invite, checked on the verification
 * page. A user without a password cannot sign in. Failed attempts per e-mail are limited in memory
 * (per process), which slows guessing without a table of its own.
 */
export class SignInService {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(private readonly users: UserService) {}

  async setPassword(accountId: number, userId: number, password: string): Promise<void> {
    assertAcceptable(password);
    await this.users.get(accountId, userId);
    await this.users.setPasswordHash(accountId, userId, await hashPassword(password));
  }

  /** The user an e-mail and password name, or an error whose message is safe to show. */
  async authenticate(accountId: number, email: string, password: string): Promise<SignedInUser> {
    const key = `${accountId}:${email.trim().toLowerCase()}`;
    const record = this.failures.get(key);
    if (record && Date.now() - record.since < WINDOW_MS && record.count >= MAX_FAILURES) {
      throw new ApiError('too_many_requests', 'Too many failed sign-in attempts; try again in 15 minutes');
    }
    const found = await this.users.findForSignIn(accountId, email);
    const user = found && { ...found.user, password_hash: found.passwordHash };
    const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
    if (!user || !user.password_hash || !ok || !user.active) {
      this.recordFailure(key);
      if (user && ok && !user.active) throw new ApiError('unauthenticated', 'This user is deactivated');
      throw new ApiError('unauthenticated', 'Wrong e-mail or password');
    }
    this.failures.delete(key);
    return { id: user.id, email: user.email ?? email.trim() };
  }

  private recordFailure(key: string) {
    const now = Date.now();
    const record = this.failures.get(key);
    if (!record || now - record.since >= WINDOW_MS) this.failures.set(key, { count: 1, since: now });
    else record.count += 1;
    if (this.failures.size > 100_000) this.failures.clear();
  }
}

export function assertAcceptable(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw badRequest(`The password must have at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH) throw badRequest(`The password must have at most ${PASSWORD_MAX_LENGTH} characters`);
}
