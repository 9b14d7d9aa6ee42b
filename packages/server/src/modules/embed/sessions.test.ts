import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores } from '../../test-support/server.js';
import { embedAccount, type EmbedAccount } from './test-fixtures.js';
import { cases } from './authorization.cases.js';

const exchange = (account: EmbedAccount, sessionId: unknown) =>
  account.request({ method: 'POST', url: '/api/v1/embed/session/token', body: { sessionId } });
const revoke = (account: EmbedAccount, sessionId: unknown) =>
  account.request({ method: 'POST', url: '/api/v1/embed/session/revoke', body: { sessionId } });

async function session(account: EmbedAccount, body: Record<string, unknown> = { externalId: 'ann' }): Promise<string> {
  const response = await account.generate(body);
  expect(response.status, response.text).toBe(200);
  return response.body.sessionId;
}

describeOnStores('embed sessions', (server) => {
  describe('postTokenBySessionId', () => {
    it('exchanges a session once, without credentials, for a token the service verifies', async () => {
      const account = await embedAccount(server());
      const sessionId = await session(account);
      const first = await exchange(account, sessionId);
      expect(first.status, first.text).toBe(200);
      expect(Object.keys(first.body)).toEqual(['token']);
      const verified = await server().services.embed.verifyEmbedToken(account.ref, first.body.token);
      expect(verified).toMatchObject({ accountId: account.id, deploymentId: account.deploymentId, user: { externalId: 'ann' } });
      const second = await exchange(account, sessionId);
      expect(second.status).toBe(401);
    });

    it('an unknown session, or one of another account, gets 401', async () => {
      const account = await embedAccount(server());
      const other = await embedAccount(server());
      expect((await exchange(account, 'A'.repeat(43))).status).toBe(401);
      const foreign = await session(other);
      expect((await exchange(account, foreign)).status).toBe(401);
      expect((await exchange(other, foreign)).status).toBe(200);
    });

    it('a session older than 5 minutes gets 401', async () => {
      const account = await embedAccount(server());
      const sessionId = await session(account);
      await server()
        .store.db.updateTable('embed_session')
        .set({ exchange_by: new Date(Date.now() - 1000) })
        .where('account_id', '=', account.id)
        .execute();
      const response = await exchange(account, sessionId);
      expect(response.status).toBe(401);
      expect(response.body.error).toMatch(/expired/);
    });

    it('simultaneous exchanges of one session: exactly one succeeds', async () => {
      const account = await embedAccount(server());
      const sessionId = await session(account);
      const responses = await Promise.all(Array.from({ length: 8 }, () => exchange(account, sessionId)));
      expect(responses.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
    });

    it('a body without sessionId gets 400', async () => {
      const account = await embedAccount(server());
      const response = await account.request({ method: 'POST', url: '/api/v1/embed/session/token', body: {} });
      expect(response.status).toBe(400);
    });
  });

  describe('verifyEmbedToken', () => {
    it('rejects a forged, tampered, expired or foreign token', async () => {
      const account = await embedAccount(server());
      const other = await embedAccount(server());
      const { token } = (await exchange(account, await session(account))).body;
      const [header, payload, signature] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, groups: ['admins'] })).toString('base64url')}.${signature}`;
      const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32));
      const key = await server().services.embed.keys.key(account.id);
      const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(key);
      for (const bad of [tampered, forged, expired, 'not.a.token']) {
        await expect(server().services.embed.verifyEmbedToken(account.ref, bad)).rejects.toMatchObject({ status: 401 });
      }
      await expect(server().services.embed.verifyEmbedToken(other.ref, token)).rejects.toMatchObject({ status: 401 });
      await expect(server().services.embed.verifyEmbedToken(account.ref, token)).resolves.toMatchObject({ accountId: account.id });
    });

    it('the signing secret is per account and stored sealed', async () => {
      const account = await embedAccount(server());
      const other = await embedAccount(server());
      await exchange(account, await session(account));
      const key = Buffer.from(await server().services.embed.keys.key(account.id)).toString('base64url');
      expect(Buffer.from(await server().services.embed.keys.key(other.id)).toString('base64url')).not.toBe(key);
      const row = await server()
        .store.db.selectFrom('embed_account')
        .select('signing_secret_sealed')
        .where('account_id', '=', account.id)
        .executeTakeFirstOrThrow();
      expect(row.signing_secret_sealed).not.toContain(key);
    });
  });

  describe('revokeEmbedSession', () => {
    it('204, idempotent; the session cannot be exchanged and its tokens stop being accepted', async () => {
      const account = await embedAccount(server());
      const unexchanged = await session(account);
      const exchanged = await session(account);
      const { token } = (await exchange(account, exchanged)).body;
      for (const id of [unexchanged, exchanged, exchanged]) expect((await revoke(account, id)).status).toBe(204);
      expect(await revoke(account, 'never-existed')).toMatchObject({ status: 404, body: { error: 'Unknown embed session' } });
      expect((await exchange(account, unexchanged)).status).toBe(401);
      await expect(server().services.embed.verifyEmbedToken(account.ref, token)).rejects.toMatchObject({
        status: 401,
        message: expect.stringMatching(/revoked/),
      });
    });

    it('another account cannot revoke a session: to it the session is unknown', async () => {
      const account = await embedAccount(server());
      const other = await embedAccount(server());
      const sessionId = await session(account);
      expect((await revoke(other, sessionId)).status).toBe(404);
      expect((await exchange(account, sessionId)).status).toBe(200);
    });

    it('an admin revokes by the id the audit lists; an id of another account or none is 404', async () => {
      const account = await embedAccount(server());
      const other = await embedAccount(server());
      const sessionId = await session(account);
      const audit = await account.request({ method: 'GET', url: '/api/v1/embed/sessions', as: account.admin });
      const { id } = audit.body.items[0];
      const byId = (owner: EmbedAccount, target: number) =>
        owner.request({ method: 'POST', url: `/api/v1/embed/sessions/${target}/revoke`, as: owner.admin });
      expect((await byId(other, id)).status).toBe(404);
      expect((await byId(account, id)).status).toBe(204);
      expect((await byId(account, id)).status).toBe(204);
      expect((await exchange(account, sessionId)).status).toBe(401);
      expect(await byId(account, 2_000_000_000)).toMatchObject({ status: 404, body: { error: 'Embed session 2000000000 not found' } });
    });
  });

  describe('listEmbedSessions', () => {
    it('lists who minted what for whom, exchanged and revoked, never the session id', async () => {
      const account = await embedAccount(server());
      const first = await session(account, { externalId: 'Ann', embedTenantName: 'tenant-a' });
      const second = await session(account, { internalId: account.member.email });
      await exchange(account, first);
      await revoke(account, second);
      const response = await account.request({ method: 'GET', url: '/api/v1/embed/sessions', as: account.admin });
      expect(response.status).toBe(200);
      expect(response.body.items).toEqual([
        expect.objectContaining({
          apiKeyId: account.admin.apiKeyId,
          deploymentId: account.deploymentId,
          embedTenantName: 'tenant-a',
          externalId: 'ann',
          internalId: null,
          creatorMode: false,
          exchanged: true,
          revoked: false,
          revokedAt: null,
        }),
        expect.objectContaining({
          externalId: null,
          internalId: account.member.email,
          embedTenantName: account.name,
          exchanged: false,
          exchangedAt: null,
          revoked: true,
        }),
      ]);
      expect(response.text).not.toContain(first);
      expect(response.text).not.toContain(second);
      const page = await account.request({ method: 'GET', url: '/api/v1/embed/sessions?first=1', as: account.admin });
      expect(page.body.items).toHaveLength(1);
      expect(page.body.pageInfo.hasNextPage).toBe(true);
    });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);

    it('generateSession: a member API key gets 403 (admin only, as the reference); listEmbedSessions only shows the own account', async () => {
      const account = await embedAccount(server());
      const other = await embedAccount(server());
      const refused = await account.generate({ externalId: 'ann' }, account.member);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('This operation requires the admin role');
      expect(await account.footprint()).toMatchObject({ external_user: 0, embed_session: 0 });
      expect((await account.generate({ externalId: 'ann' })).status).toBe(200);
      await session(other);
      const list = await account.request({ method: 'GET', url: '/api/v1/embed/sessions', as: account.admin });
      expect(list.body.items).toHaveLength(1);
    });
  });
});
