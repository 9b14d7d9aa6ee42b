import { sql, type Kysely } from 'kysely';
import type { Database, DeviceAuthorizationStatus } from '../../store/schema.js';
import { accessTokenLiveAt } from '../credentials/public.js';

/** Expired rows stay this long, so a late click still hears "expired" rather than "unknown". */
export const PURGE_GRACE_MS = 24 * 3600_000;
/** Rows purged beside each insert: more than one insert adds, so the tables shrink, yet cheap. */
export const PURGE_BATCH = 100;

/**
 * Tables of the login module: device authorizations, login sessions and the tokens issued in each.
 * Users and access tokens belong to their own modules and are reached through their services.
 */
export class LoginRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Expired rows are purged where new ones are made, a bounded batch each time, so no timer is
   * needed; SKIP LOCKED keeps replicas purging at once from waiting on (or deadlocking) each other.
   */
  async insertDevice(values: {
    account_id: number;
    device_code_hash: string;
    user_code: string;
    client_name: string | null;
    interval_s: number;
    expires_at: Date;
  }) {
    await sql`
      delete from device_authorization where id in (
        select id from device_authorization where expires_at < ${graceCutoff()} limit ${PURGE_BATCH} for update skip locked)
    `.execute(this.db);
    return this.db.insertInto('device_authorization').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /** Invites past their expiry (used or not), purged beside each new invite. */
  async purgeInvites(): Promise<void> {
    await sql`
      delete from user_invite where id in (
        select id from user_invite where expires_at < ${graceCutoff()} limit ${PURGE_BATCH} for update skip locked)
    `.execute(this.db);
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

  /**
   * A new login purges sessions that are over: revoked, or whose every token's refresh has expired
   * (or was revoked). Their tokens' links go with them; the access tokens stay with their module.
   */
  async insertSession(accountId: number, userId: number, clientName: string | null) {
    const cutoff = graceCutoff();
    await sql`
      delete from login_session where id in (
        select s.id from login_session s
        where s.revoked_at < ${cutoff}
           or (s.created_at < ${cutoff} and not exists (
                select 1 from login_token t
                where t.session_id = s.id and ${accessTokenLiveAt(sql.ref('t.access_token_id'), cutoff)}))
        limit ${PURGE_BATCH} for update of s skip locked)
    `.execute(this.db);
    return this.db
      .insertInto('login_session')
      .values({ account_id: accountId, user_id: userId, client_name: clientName })
      .returning('id')
      .executeTakeFirstOrThrow();
  }

  linkToken(sessionId: number, accessTokenId: number) {
    return this.db.insertInto('login_token').values({ access_token_id: accessTokenId, session_id: sessionId }).execute();
  }

  /** The login session an access token was issued in (none for tokens issued outside a login). */
  sessionOfToken(accessTokenId: number) {
    return this.db
      .selectFrom('login_token as l')
      .innerJoin('login_session as s', 's.id', 'l.session_id')
      .select(['s.id as sessionId', 's.revoked_at as revokedAt', 's.client_name as clientName'])
      .where('l.access_token_id', '=', accessTokenId)
      .executeTakeFirst();
  }

  /** Marks a session revoked and answers the ids of every access token issued in it. */
  async revokeSession(sessionId: number): Promise<number[]> {
    await this.db
      .updateTable('login_session')
      .set({ revoked_at: sql`coalesce(revoked_at, now())` })
      .where('id', '=', sessionId)
      .execute();
    const tokens = await this.db.selectFrom('login_token').select('access_token_id').where('session_id', '=', sessionId).execute();
    return tokens.map((t) => t.access_token_id);
  }
}

function graceCutoff(): Date {
  return new Date(Date.now() - PURGE_GRACE_MS);
}
