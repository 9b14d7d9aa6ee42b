import { sql, type Kysely } from 'kysely';
import type { Database, DeviceAuthorizationStatus } from '../../store/schema.js';

/**
 * Tables of the login module. It also reads the sign-in fields of `app_user` (e-mail, active,
 * password_hash) and revokes rows of `access_token`, because a password and the refresh chain of
 * a login are this module's concern; the credentials module still issues and verifies the tokens.
 */
export class LoginRepo {
  constructor(private readonly db: Kysely<Database>) {}

  insertDevice(values: { account_id: number; device_code_hash: string; user_code: string; client_name: string | null; interval_s: number; expires_at: Date }) {
    return this.db.insertInto('device_authorization').values(values).returningAll().executeTakeFirstOrThrow();
  }

  findDeviceByCode(hash: string) {
    return this.db.selectFrom('device_authorization').selectAll().where('device_code_hash', '=', hash).executeTakeFirst();
  }

  findPendingByUserCode(accountId: number, userCode: string) {
    return this.db
      .selectFrom('device_authorization')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('user_code', '=', userCode)
      .where('status', '=', 'pending')
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
  }

  /** Moves a device authorization from one status to another; false when another request won. */
  async transition(id: number, from: DeviceAuthorizationStatus, to: DeviceAuthorizationStatus, userId?: number): Promise<boolean> {
    const row = await this.db
      .updateTable('device_authorization')
      .set({ status: to, ...(userId === undefined ? {} : { user_id: userId }) })
      .where('id', '=', id)
      .where('status', '=', from)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  recordPoll(id: number, intervalSeconds: number) {
    return this.db
      .updateTable('device_authorization')
      .set({ last_polled_at: new Date(), interval_s: intervalSeconds })
      .where('id', '=', id)
      .execute();
  }

  findSignInUser(accountId: number, email: string) {
    return this.db
      .selectFrom('app_user')
      .select(['id', 'email', 'active', 'password_hash', 'role'])
      .where('account_id', '=', accountId)
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  }

  findUser(accountId: number, id: number) {
    return this.db
      .selectFrom('app_user')
      .select(['id', 'email', 'display_name', 'active', 'password_hash', 'role'])
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  setPasswordHash(accountId: number, userId: number, hash: string) {
    return this.db
      .updateTable('app_user')
      .set({ password_hash: hash, updated_at: new Date() })
      .where('account_id', '=', accountId)
      .where('id', '=', userId)
      .returning('id')
      .executeTakeFirst();
  }

  insertSession(accountId: number, userId: number, clientName: string | null) {
    return this.db
      .insertInto('login_session')
      .values({ account_id: accountId, user_id: userId, client_name: clientName })
      .returning('id')
      .executeTakeFirstOrThrow();
  }

  async linkToken(sessionId: number, accessTokenHash: string) {
    const token = await this.db.selectFrom('access_token').select('id').where('token_hash', '=', accessTokenHash).executeTakeFirstOrThrow();
    await this.db.insertInto('login_token').values({ access_token_id: token.id, session_id: sessionId }).execute();
  }

  /** The access-token row a refresh token belongs to, with its login session. */
  findByRefreshHash(accountId: number, hash: string) {
    return this.db
      .selectFrom('access_token as t')
      .leftJoin('login_token as l', 'l.access_token_id', 't.id')
      .leftJoin('login_session as s', 's.id', 'l.session_id')
      .innerJoin('app_user as u', 'u.id', 't.user_id')
      .select(['t.id', 't.user_id', 't.revoked_at', 't.refresh_expires_at', 'l.session_id', 's.revoked_at as session_revoked_at'])
      .select(['s.client_name', 'u.active as user_active'])
      .where('t.account_id', '=', accountId)
      .where('t.refresh_token_hash', '=', hash)
      .executeTakeFirst();
  }

  findByAccessHash(accountId: number, hash: string) {
    return this.db
      .selectFrom('access_token as t')
      .leftJoin('login_token as l', 'l.access_token_id', 't.id')
      .select(['t.id', 'l.session_id'])
      .where('t.account_id', '=', accountId)
      .where('t.token_hash', '=', hash)
      .executeTakeFirst();
  }

  /** Rotation: revokes one token row unless already revoked; false means it was (a reuse). */
  async revokeTokenOnce(id: number): Promise<boolean> {
    const row = await this.db
      .updateTable('access_token')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async revokeSession(sessionId: number) {
    await this.db.updateTable('login_session').set({ revoked_at: sql`coalesce(revoked_at, now())` }).where('id', '=', sessionId).execute();
    await this.db
      .updateTable('access_token')
      .set({ revoked_at: sql`coalesce(revoked_at, now())` })
      .where('id', 'in', (eb) => eb.selectFrom('login_token').select('access_token_id').where('session_id', '=', sessionId))
      .execute();
  }

  revokeToken(id: number) {
    return this.db.updateTable('access_token').set({ revoked_at: sql`coalesce(revoked_at, now())` }).where('id', '=', id).execute();
  }
}
