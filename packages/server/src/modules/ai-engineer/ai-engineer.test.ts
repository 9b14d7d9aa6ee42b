import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';

const SETTINGS = '/api/v1/ai-engineer/settings';
const REGION = '/api/v1/ai-engineer/active-region';

async function setup(server: TestServer) {
  const account = await server.newAccount();
  const bearer = `Bearer ${await account.accessToken(account.member)}`;
  return { account, bearer };
}

describeOnStores(
  'AI engineer',
  (server) => {
    describe('settings', () => {
      it('issues the caller a short-lived access token of their own, which acts as them and expires', async () => {
        const { account, bearer } = await setup(server());
        const response = await account.request({ method: 'GET', url: SETTINGS, as: bearer });
        expect(response.status, response.text).toBe(200);
        expect(response.body).toEqual({
          url: `http://${account.host}/api/v1`,
          token: expect.stringMatching(/^pla_/),
          expiresAt: expect.any(String),
          cubeCredentials: null,
          graphqlToken: null,
          mcpToken: null,
          hasAgentAccess: true,
          enabled: true,
          tokenTtlSeconds: 900,
        });
        const lifetime = Date.parse(response.body.expiresAt) - Date.now();
        expect(lifetime).toBeGreaterThan(880_000);
        expect(lifetime).toBeLessThanOrEqual(900_000);
        // The token is the member's: it reads what the member reads, and no more.
        const me = await account.request({ method: 'GET', url: '/api/v1/agent-llms', as: `Bearer ${response.body.token}` });
        expect(me.status).toBe(200);
        const admin = await account.request({
          method: 'PUT',
          url: SETTINGS,
          as: `Bearer ${response.body.token}`,
          body: { enabled: false },
        });
        expect(admin.status).toBe(403);
      });

      it('an admin turns agents off (no token then) and sets the token lifetime; values are checked', async () => {
        const { account, bearer } = await setup(server());
        const put = (body: unknown) => account.request({ method: 'PUT', url: SETTINGS, as: account.admin, body });
        const off = await put({ enabled: false, tokenTtlSeconds: 120 });
        expect(off.body).toEqual({ enabled: false, tokenTtlSeconds: 120, updatedAt: expect.any(String) });
        const read = await account.request({ method: 'GET', url: SETTINGS, as: bearer });
        expect(read.body).toMatchObject({ token: '', expiresAt: null, hasAgentAccess: false, enabled: false, tokenTtlSeconds: 120 });
        expect((await put({ enabled: true })).body).toMatchObject({ enabled: true, tokenTtlSeconds: 120 });
        const short = await account.request({ method: 'GET', url: SETTINGS, as: bearer });
        expect(Date.parse(short.body.expiresAt) - Date.now()).toBeLessThanOrEqual(120_000);
        for (const [body, message] of [
          [{ tokenTtlSeconds: 10 }, /tokenTtlSeconds/],
          [{ tokenTtlSeconds: 86_400 }, /tokenTtlSeconds/],
          [{}, /body must not be empty/],
          [{ enabled: 'yes' }, /enabled/],
          [{ token: 'x' }, /unknown property "token"/],
        ] as const) {
          const response = await put(body);
          expect(response.status, JSON.stringify(body)).toBe(400);
          expect(response.body.error).toMatch(message);
        }
      });

      it("an API key gets the url but no token: the token would act as the key's user, who may hold more than the key", async () => {
        const { account } = await setup(server());
        const response = await account.request({ method: 'GET', url: SETTINGS, as: account.member });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ url: `http://${account.host}/api/v1`, token: '', expiresAt: null, hasAgentAccess: true });
      });

      it("deploymentId and agentId must be the account's", async () => {
        const { account, bearer } = await setup(server());
        const stranger = await server().newAccount();
        const theirs = (await server().services.deployments.create(stranger.id, { name: 'd' }, 'http://localhost')).id;
        const mine = (await server().services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
        const get = (query: string) => account.request({ method: 'GET', url: `${SETTINGS}?${query}`, as: bearer });
        expect((await get(`deploymentId=${theirs}`)).status).toBe(404);
        expect((await get(`deploymentId=${mine}`)).status).toBe(200);
        expect((await get('agentId=2147483000')).status).toBe(404);
        expect((await get('deploymentId=abc')).status).toBe(400);
      });
    });

    describe('active region', () => {
      it('defaults to the first configured region; a user chooses another; an unknown region is 400 naming the regions', async () => {
        const { account } = await setup(server());
        const initial = await account.request({ method: 'GET', url: REGION, as: account.member });
        expect(initial.body).toEqual({ userId: account.member.id, regionName: 'eu-west', createdAt: null, updatedAt: null });
        const chosen = await account.request({ method: 'PUT', url: REGION, as: account.member, body: { regionName: 'us-east' } });
        expect(chosen.body).toEqual({
          userId: account.member.id,
          regionName: 'us-east',
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        // Per user: the admin still has the default.
        expect((await account.request({ method: 'GET', url: REGION, as: account.admin })).body.regionName).toBe('eu-west');
        const unknown = await account.request({ method: 'PUT', url: REGION, as: account.member, body: { regionName: 'mars' } });
        expect([unknown.status, unknown.body.error]).toEqual([400, 'regionName "mars" is not a region here; regions: eu-west, us-east']);
        expect((await account.request({ method: 'GET', url: REGION, as: account.member })).body.regionName).toBe('us-east');
      });
    });

    describe('authorisation', () => {
      authorizationSuite(server, cases);
    });
  },
  { PLINTH_REGIONS: 'eu-west,us-east' },
);
