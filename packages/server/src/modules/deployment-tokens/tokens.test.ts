import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import type { DataTokenPrincipal, Principal } from '../../http/principal.js';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { embedAccount } from '../embed/test-fixtures.js';
import { cases } from './authorization.cases.js';

const deployment = async (account: TestAccount) =>
  (await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } })).body.id as number;

const mint = (account: TestAccount, id: number, body?: unknown) =>
  account.request({ method: 'POST', url: `/api/v1/deployments/${id}/token`, as: account.admin, body });

/** What the data API's authentication makes of a bare JWT (the verifier the data routes use). */
async function verify(server: TestServer, accountId: number, token: string): Promise<Principal> {
  const account = (await server.store.db.selectFrom('account').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow())!;
  return server.app.credentialVerifiers.dataToken!(account, token);
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e as { statusCode?: number; status?: number; message: string },
  );
  expect(error, 'the token was accepted').not.toBeNull();
  return error!;
}

describeOnStores('deployment tokens', (server) => {
  describe('authorisation of every operation of the module', () => {
    authorizationSuite(server, cases);
  });

  describe('deploymentToken', () => {
    it('mints a token that verifies to its deployment and security context', async () => {
      const account = await server().newAccount();
      const id = await deployment(account);
      const response = await mint(account, id, { securityContext: { tenant: 'acme' }, expiresIn: 3600 });
      expect(response.status, response.text).toBe(200);
      expect(Object.keys(response.body)).toEqual(['cubeApiToken']);
      const payload = decodeJwt(response.body.cubeApiToken);
      expect(payload).toMatchObject({ deploymentId: id, securityContext: { tenant: 'acme' } });
      expect(payload.exp! - payload.iat!).toBe(3600);
      const principal = (await verify(server(), account.id, response.body.cubeApiToken)) as DataTokenPrincipal;
      expect(principal).toEqual({
        kind: 'dataToken',
        accountId: account.id,
        claims: { deploymentId: id, securityContext: { tenant: 'acme' }, expiresAt: payload.exp },
      });
    });

    it('defaults to an empty security context and 24 hours, with or without a body', async () => {
      const account = await server().newAccount();
      const id = await deployment(account);
      for (const body of [undefined, {}]) {
        const response = await mint(account, id, body);
        expect(response.status, response.text).toBe(200);
        const payload = decodeJwt(response.body.cubeApiToken);
        expect(payload.securityContext).toEqual({});
        expect(payload.exp! - payload.iat!).toBe(24 * 60 * 60);
      }
    });

    it.each([
      [{ expiresIn: 30 * 24 * 60 * 60 + 1 }, /expiresIn/],
      [{ expiresIn: 0 }, /expiresIn/],
      [{ expiresIn: 'soon' }, /expiresIn/],
      [{ securityContext: [1] }, /securityContext/],
      [{ securityContext: 'x' }, /securityContext/],
      [{ audience: 'x' }, /audience/],
    ])('rejects %j naming the field', async (body, message) => {
      const account = await server().newAccount();
      const response = await mint(account, await deployment(account), body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(message);
    });

    it('a missing deployment is 404', async () => {
      const account = await server().newAccount();
      const response = await mint(account, 424242, {});
      expect(response.status).toBe(404);
    });
  });

  describe('the data API credential verifier', () => {
    it('a token verified once is remembered only within its account and until its expiry', async () => {
      const account = await server().newAccount();
      const other = await server().newAccount();
      const id = await deployment(account);
      const token = (await mint(account, id, { expiresIn: 60 })).body.cubeApiToken as string;
      expect((await verify(server(), account.id, token)).kind).toBe('dataToken');
      // Remembered by its text, yet another account's host must still refuse it.
      expect((await refusal(verify(server(), other.id, token))).message).toBe('Invalid token');
      const exp = decodeJwt(token).exp!;
      vi.useFakeTimers({ toFake: ['Date'], now: exp * 1000 + 1 });
      try {
        expect((await refusal(verify(server(), account.id, token))).message).toBe('Invalid token');
      } finally {
        vi.useRealTimers();
      }
    });

    it('refuses expired, tampered, foreign and malformed tokens with 403 Invalid token', async () => {
      const account = await server().newAccount();
      const other = await server().newAccount();
      const id = await deployment(account);
      const otherId = await deployment(other);
      const good = (await mint(account, id, {})).body.cubeApiToken as string;
      const foreign = (await mint(other, otherId, {})).body.cubeApiToken as string;
      const [header, payload, signature] = good.split('.') as [string, string, string];
      const claims = decodeJwt(good);
      const forged = Buffer.from(JSON.stringify({ ...claims, securityContext: { admin: true } })).toString('base64url');
      const key = server().services.deploymentTokens.secrets;
      const expired = await new SignJWT({ deploymentId: id, securityContext: {} })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
        .sign(await key.key(account.id, id));
      const noExpiry = await new SignJWT({ deploymentId: id, securityContext: {} })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(await key.key(account.id, id));
      const otherDeployment = await deployment(account);
      const wrongSecret = await new SignJWT({ deploymentId: id, securityContext: {} })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('1h')
        .sign(await key.key(account.id, otherDeployment));
      const tokens = {
        tampered: `${header}.${forged}.${signature}`,
        expired,
        noExpiry,
        wrongSecret,
        otherAccountsDeployment: foreign,
        notAJwt: 'a.b.c',
        unknownDeployment: `${header}.${Buffer.from(JSON.stringify({ ...claims, deploymentId: 999999 })).toString('base64url')}.${signature}`,
        badSignature: `${header}.${payload}.${signature.slice(0, -4)}AAAA`,
      };
      for (const [name, token] of Object.entries(tokens)) {
        const error = await refusal(verify(server(), account.id, token));
        expect([name, error.statusCode ?? error.status, error.message]).toEqual([name, 403, 'Invalid token']);
      }
      // The other account's own token still works there.
      expect((await verify(server(), other.id, foreign)).kind).toBe('dataToken');
    });

    it('verifies an embed token to an EmbedTokenPrincipal, and refuses it once its session is revoked', async () => {
      const account = await embedAccount(server());
      const generated = await account.generate({ externalId: 'ann' });
      expect(generated.status, generated.text).toBe(200);
      const { sessionId } = generated.body;
      const exchanged = await account.request({ method: 'POST', url: '/api/v1/embed/session/token', body: { sessionId } });
      expect(exchanged.status, exchanged.text).toBe(200);
      const token = exchanged.body.token as string;
      const principal = await verify(server(), account.id, token);
      expect(principal).toMatchObject({ kind: 'embedToken', accountId: account.id, claims: { deploymentId: account.deploymentId } });
      const other = await server().newAccount();
      expect((await refusal(verify(server(), other.id, token))).message).toBe('Invalid token');
      await account.request({ method: 'POST', url: '/api/v1/embed/session/revoke', body: { sessionId } });
      const error = await refusal(verify(server(), account.id, token));
      expect([error.statusCode ?? error.status, error.message]).toEqual([403, 'Invalid token']);
    });
  });
});
