import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { REFRESH_TOKEN_TTL_S } from '../credentials/service.js';
import { TOKEN_LIFETIME_SECONDS } from '../embed/tokens.js';
import { PURGE_GRACE_MS } from '../login/repo.js';
import { STALE_MS } from '../rate-limits/service.js';
import { EMBED_SESSION_RETENTION_MS } from '../embed/retention.js';
import { DEAD_JOB_RETENTION_MS, FINISHED_JOB_RETENTION_MS } from './rules.js';
import { SWEEP_BATCH } from './sweep.js';

const DAY = 24 * 3600_000;
const MINUTE = 60_000;
const tag = () => randomBytes(6).toString('hex');

/** Runs one sweep as of `now` through the test server's runner; answers what it deleted. */
async function sweep(server: TestServer, now: number): Promise<Record<string, number>> {
  server.jobs.queue.now = () => now;
  const { id } = await server.jobs.queue.enqueue({ kind: 'retention.sweep' });
  await server.jobs.runUntilIdle();
  const row = await server.jobs.queue.find(id);
  expect(row).toMatchObject({ state: 'succeeded' });
  return row!.result as Record<string, number>;
}

describeOnStores('retention: the sweep deletes what is past retention and keeps the rest (issue 11)', (server) => {
  const db = () => server().store.db;

  it('embed sessions go once every token they could have issued is past the audit retention', async () => {
    const account = await server().newAccount();
    const now = Date.now();
    const deployment = await db()
      .insertInto('deployment')
      .values({ account_id: account.id, name: 'd' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tenant = await db()
      .insertInto('embed_tenant')
      .values({ account_id: account.id, name: 't' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cutoff = now - TOKEN_LIFETIME_SECONDS * 1000 - EMBED_SESSION_RETENTION_MS;
    const session = (ref: string, exchangeBy: number, exchanged: boolean) => ({
      account_id: account.id,
      session_hash: tag(),
      deployment_id: deployment.id,
      embed_tenant_id: tenant.id,
      user_ref: ref,
      creator_mode: false,
      claims: '{}',
      exchange_by: new Date(exchangeBy),
      exchanged_at: exchanged ? new Date(exchangeBy - MINUTE) : null,
    });
    await db()
      .insertInto('embed_session')
      .values([
        session('old-unused', cutoff - MINUTE, false),
        session('old-exchanged', cutoff - MINUTE, true),
        session('recent-exchanged', cutoff + MINUTE, true),
        session('fresh', now + MINUTE, false),
      ])
      .execute();
    await sweep(server(), now);
    const left = await db().selectFrom('embed_session').select('user_ref').where('account_id', '=', account.id).orderBy('id').execute();
    expect(left.map((r) => r.user_ref)).toEqual(['recent-exchanged', 'fresh']);
  });

  it('device authorizations go a grace period after they expired', async () => {
    const account = await server().newAccount();
    const now = Date.now();
    const device = (code: string, expiresAt: number) => ({
      account_id: account.id,
      device_code_hash: `${code}-${tag()}`,
      user_code: code,
      interval_s: 5,
      expires_at: new Date(expiresAt),
    });
    await db()
      .insertInto('device_authorization')
      .values([device('OLD', now - PURGE_GRACE_MS - MINUTE), device('GRACE', now - PURGE_GRACE_MS + MINUTE), device('LIVE', now + MINUTE)])
      .execute();
    await sweep(server(), now);
    const left = await db()
      .selectFrom('device_authorization')
      .select('user_code')
      .where('account_id', '=', account.id)
      .orderBy('id')
      .execute();
    expect(left.map((r) => r.user_code)).toEqual(['GRACE', 'LIVE']);
  });

  it('access tokens go when their refresh lifetime is over; revoked ones only once their refresh token can no longer be replayed', async () => {
    const account = await server().newAccount();
    const now = Date.now();
    const gone = now - PURGE_GRACE_MS - MINUTE;
    const token = (name: string, t: { expires: number; refresh: number | null; revoked?: number }) => ({
      account_id: account.id,
      user_id: account.member.id,
      token_hash: `${name}-${tag()}`,
      refresh_token_hash: t.refresh === null ? null : `refresh-${tag()}`,
      revoked_reason: name,
      expires_at: new Date(t.expires),
      refresh_expires_at: t.refresh === null ? null : new Date(t.refresh),
      revoked_at: t.revoked === undefined ? null : new Date(t.revoked),
    });
    await db()
      .insertInto('access_token')
      .values([
        token('refresh-over', { expires: gone - REFRESH_TOKEN_TTL_S * 1000, refresh: gone }),
        token('access-over-refresh-live', { expires: gone, refresh: now + DAY }),
        token('revoked-refresh-live', { expires: gone, refresh: now + DAY, revoked: gone }),
        token('revoked-no-refresh', { expires: now + DAY, refresh: null, revoked: gone }),
        token('revoked-recently', { expires: now + DAY, refresh: null, revoked: now - MINUTE }),
        token('no-refresh-over', { expires: gone, refresh: null }),
        token('live', { expires: now + DAY, refresh: now + 30 * DAY }),
      ])
      .execute();
    await sweep(server(), now);
    const left = await db()
      .selectFrom('access_token')
      .select('revoked_reason')
      .where('account_id', '=', account.id)
      .orderBy('id')
      .execute();
    expect(left.map((r) => r.revoked_reason)).toEqual(['access-over-refresh-live', 'revoked-refresh-live', 'revoked-recently', 'live']);
  });

  it('telemetry events go after the retention setting, stale rate-limit buckets after a day, in batches', async () => {
    const account = await server().newAccount();
    const now = Date.now();
    const retention = server().config.telemetryRetentionDays * DAY;
    const event = (command: string, at: number) => ({
      account_id: account.id,
      command,
      success: true,
      version: '1',
      platform: 'linux',
      machine_id: 'm',
      created_at: new Date(at),
    });
    await db()
      .insertInto('telemetry_event')
      .values([event('old', now - retention - MINUTE), event('kept', now - retention + MINUTE)])
      .execute();
    const prefix = `sweep-${tag()}`;
    const stale = new Date(now - STALE_MS - MINUTE);
    await sql`insert into rate_limit (bucket, hits, window_start, last_hit_at)
      select ${prefix} || '-' || i, 1, ${stale}::timestamptz, ${stale}::timestamptz from generate_series(1, ${2 * SWEEP_BATCH + 5}) i`.execute(
      db(),
    );
    await db()
      .insertInto('rate_limit')
      .values({
        bucket: `${prefix}-recent`,
        hits: 1,
        window_start: new Date(now - STALE_MS + MINUTE),
        last_hit_at: new Date(now - STALE_MS + MINUTE),
      })
      .execute();

    const deleted = await sweep(server(), now);
    expect(deleted.rate_limit).toBeGreaterThanOrEqual(2 * SWEEP_BATCH + 5);
    const events = await db().selectFrom('telemetry_event').select('command').where('account_id', '=', account.id).execute();
    expect(events.map((e) => e.command)).toEqual(['kept']);
    const buckets = await db().selectFrom('rate_limit').select('bucket').where('bucket', 'like', `${prefix}-%`).execute();
    expect(buckets.map((b) => b.bucket)).toEqual([`${prefix}-recent`]);
  });

  it('expired ephemeral external users go; kept and unexpired ones stay', async () => {
    const account = await server().newAccount();
    const now = Date.now();
    const tenant = await db()
      .insertInto('embed_tenant')
      .values({ account_id: account.id, name: 't' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = (externalId: string, expiresAt: number | null) =>
      sql`insert into external_user (account_id, embed_tenant_id, external_id, expires_at)
        values (${account.id}, ${tenant.id}, ${externalId}, ${expiresAt === null ? null : new Date(expiresAt)}::timestamptz)`.execute(db());
    await user('expired', now - 1_000);
    await user('ephemeral', now + MINUTE);
    await user('kept', null);
    await sweep(server(), now);
    const left = await db().selectFrom('external_user').select('external_id').where('account_id', '=', account.id).orderBy('id').execute();
    expect(left.map((u) => u.external_id)).toEqual(['ephemeral', 'kept']);
  });

  it('finished jobs go after a week, dead ones after a month; queued and running ones stay', async () => {
    const now = Date.now();
    const kind = `test.${tag()}`;
    const job = (state: 'succeeded' | 'cancelled' | 'dead' | 'queued' | 'running', finishedAgo: number | null, name: string) => ({
      kind,
      state,
      max_attempts: 1,
      run_at: new Date(now - 40 * DAY),
      payload: JSON.stringify({ name }),
      finished_at: finishedAgo === null ? null : new Date(now - finishedAgo),
      last_error: null,
      lease_until: null,
      claimed_by: null,
    });
    await db()
      .insertInto('job')
      .values([
        job('succeeded', FINISHED_JOB_RETENTION_MS + MINUTE, 'old-success'),
        job('cancelled', FINISHED_JOB_RETENTION_MS + MINUTE, 'old-cancel'),
        job('succeeded', FINISHED_JOB_RETENTION_MS - MINUTE, 'recent-success'),
        job('dead', FINISHED_JOB_RETENTION_MS + MINUTE, 'dead-week'),
        job('dead', DEAD_JOB_RETENTION_MS + MINUTE, 'dead-month'),
        job('queued', null, 'queued'),
        job('running', null, 'running'),
      ])
      .execute();
    await sweep(server(), now);
    const left = await db().selectFrom('job').select('payload').where('kind', '=', kind).orderBy('id').execute();
    expect(left.map((j) => (j.payload as { name: string }).name)).toEqual(['recent-success', 'dead-week', 'queued', 'running']);
  });

  it('the sweep is due every hour on the hour: a tick past it enqueues one sweep, and the next is an hour on', async () => {
    const jobs = server().jobs;
    await jobs.scheduler.register();
    expect((await schedule())!.next_run_at.getTime() % 3600_000).toBe(0);
    const hour = Math.ceil((Date.now() + 365 * DAY) / 3600_000) * 3600_000;
    await db()
      .updateTable('job_schedule')
      .set({ next_run_at: new Date(hour) })
      .where('name', '=', 'retention.sweep')
      .execute();
    jobs.queue.now = () => hour - 1;
    expect(await jobs.scheduler.tick()).toBe(0);
    jobs.queue.now = () => hour + 1;
    expect(await jobs.scheduler.tick()).toBe(1);
    expect(await jobs.scheduler.tick()).toBe(0);
    expect(await schedule()).toEqual({ next_run_at: new Date(hour + 3600_000) });
    const queued = await db()
      .selectFrom('job')
      .select('dedupe_key')
      .where('kind', '=', 'retention.sweep')
      .where('state', '=', 'queued')
      .execute();
    expect(queued).toEqual([{ dedupe_key: `retention.sweep@${new Date(hour).toISOString()}` }]);
    await jobs.runUntilIdle();
  });

  const schedule = () => db().selectFrom('job_schedule').select('next_run_at').where('name', '=', 'retention.sweep').executeTakeFirst();
});
