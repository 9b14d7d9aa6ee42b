import { expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { PURGE_BATCH, PURGE_GRACE_MS } from './repo.js';

const longAgo = () => new Date(Date.now() - PURGE_GRACE_MS - 60_000);

describeOnStores('login: expired device codes, invites and sessions are purged (issue 10, security 5)', (server) => {
  const db = () => server().store.db;

  it('starting a device login purges a bounded batch of long-expired device codes, keeping recent ones', async () => {
    const account = await server().newAccount();
    const rows = (n: number, expiresAt: Date, tag: string) =>
      Array.from({ length: n }, (_, i) => ({
        account_id: account.id,
        device_code_hash: `${tag}-${i}-${Math.random()}`,
        user_code: 'BCDFGHJK',
        client_name: null,
        interval_s: 5,
        expires_at: expiresAt,
      }));
    await db()
      .insertInto('device_authorization')
      .values([...rows(PURGE_BATCH + 5, longAgo(), 'old'), ...rows(2, new Date(Date.now() - 1000), 'recent')])
      .execute();
    const count = async () =>
      await db().selectFrom('device_authorization').select('expires_at').where('account_id', '=', account.id).execute();
    const response = await account.request({ method: 'POST', url: '/api/v1/auth/device/code', body: {} });
    expect(response.status).toBe(200);
    const afterOne = await count();
    expect(afterOne.length).toBe(5 + 2 + 1);
    await account.request({ method: 'POST', url: '/api/v1/auth/device/code', body: {} });
    const left = await count();
    expect(left.filter((r) => r.expires_at.getTime() < Date.now() - PURGE_GRACE_MS)).toHaveLength(0);
    expect(left).toHaveLength(2 + 2);
  });

  it('creating an invite purges long-expired invites', async () => {
    const account = await server().newAccount();
    await db()
      .insertInto('user_invite')
      .values([
        { account_id: account.id, user_id: account.member.id, token_hash: `old-${Math.random()}`, expires_at: longAgo() },
        {
          account_id: account.id,
          user_id: account.member.id,
          token_hash: `used-${Math.random()}`,
          expires_at: longAgo(),
          used_at: longAgo(),
        },
      ])
      .execute();
    const created = await account.request({ method: 'POST', url: `/api/v1/users/${account.member.id}/invites`, as: account.admin });
    expect(created.status, created.text).toBe(201);
    const left = await db().selectFrom('user_invite').select('token_hash').where('account_id', '=', account.id).execute();
    expect(left).toHaveLength(1);
  });

  it('a new login purges sessions that were revoked or whose refresh tokens all expired, not live ones', async () => {
    const account = await server().newAccount();
    const tokens = server().services.login.tokens;
    await tokens.issue(account.id, account.member.id, 'revoked');
    await tokens.issue(account.id, account.member.id, 'expired');
    await tokens.issue(account.id, account.member.id, 'live');
    const sessions = await db().selectFrom('login_session').select(['id', 'client_name']).where('account_id', '=', account.id).execute();
    const id = (name: string) => sessions.find((s) => s.client_name === name)!.id;
    await db()
      .updateTable('login_session')
      .set({ created_at: longAgo() } as never)
      .where('account_id', '=', account.id)
      .execute();
    await db().updateTable('login_session').set({ revoked_at: longAgo() }).where('id', '=', id('revoked')).execute();
    const expiredTokens = db().selectFrom('login_token').select('access_token_id').where('session_id', '=', id('expired'));
    await db()
      .updateTable('access_token')
      .set({ expires_at: longAgo(), refresh_expires_at: longAgo() })
      .where('id', 'in', expiredTokens)
      .execute();

    await tokens.issue(account.id, account.member.id, 'new');
    const left = await db().selectFrom('login_session').select('client_name').where('account_id', '=', account.id).orderBy('id').execute();
    expect(left.map((s) => s.client_name)).toEqual(['live', 'new']);
  });
});
