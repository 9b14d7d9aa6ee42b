import { request as httpRequest } from 'node:http';
import { sampleModelFiles } from '@plinth/semantic';
import { sql } from 'kysely';
import { afterEach, expect, it, vi } from 'vitest';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { adminOf, commitFiles, newDeployment } from '../builds/test-fixtures.js';
import { dataDirOverride, sampleDeployment } from './test-fixtures.js';

/** A cube whose rows depend on the token's security context, so two tokens on one URL must get two answers. */
const scopedCube = (where: string) => `cubes:
  - name: scoped
    sql: >
      SELECT * FROM orders WHERE ${where}
    measures:
      - name: count
        type: count
`;
const FILES = { ...sampleModelFiles(), 'model/scoped.yml': scopedCube("{SECURITY_CONTEXT.statuses.filter('status')}") };
const QUERY = { measures: ['scoped.count'] };

async function mint(account: TestAccount, deploymentId: number, body: Record<string, unknown> = {}): Promise<string> {
  const response = await account.request({ method: 'POST', url: `/api/v1/deployments/${deploymentId}/token`, as: account.admin, body });
  if (response.status !== 200) throw new Error(`token: ${response.status} ${response.text}`);
  return response.body.cubeApiToken as string;
}

function overHttp(port: number, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text, headers: response.headers }));
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * Resolves once every notification committed before it has reached this process (the store
 * delivers them in commit order): setup's own writes can then no longer forget what a request
 * is about to remember.
 */
async function notificationsDelivered(s: TestServer): Promise<void> {
  const channel = 'plinth_test_delivered';
  const marker = `m${Math.random().toString(36).slice(2)}`;
  let arrived!: () => void;
  const delivered = new Promise<void>((resolve) => (arrived = resolve));
  await s.store.listen(channel, (payload) => {
    if (payload === marker) arrived();
  });
  await sql`select pg_notify(${channel}, ${marker})`.execute(s.store.db);
  await delivered;
}

describeOnStores(
  'the response cache of GET load',
  (server) => {
    afterEach(() => vi.useRealTimers());

    /** A deployment of the scoped model; `full()` counts the loads that went the full way (not answered by the response cache). */
    async function setup(s: TestServer) {
      const { account, deploymentId } = await sampleDeployment(s, s.services.dataApi, FILES);
      // The clock stands still: the serving lookups' TTL (a backstop of 5 s) would otherwise send a
      // request the full way on a machine slow enough to take that long between two of them.
      vi.useFakeTimers({ toFake: ['Date'] });
      const loads = vi.spyOn(s.services.dataApi, 'load');
      const url = (query: object = QUERY) => `/d/${deploymentId}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(query))}`;
      const get = async (as: string, query?: object, on: TestAccount = account) => on.request({ method: 'GET', url: url(query), as });
      return { account, deploymentId, get, full: () => loads.mock.calls.length, restore: () => loads.mockRestore() };
    }

    it('an identical request is answered from the response cache; another token (another security context) never gets its answer', async () => {
      const { account, deploymentId, get, full, restore } = await setup(server());
      try {
        const shipped = await mint(account, deploymentId, { securityContext: { statuses: ['shipped'] } });
        const returned = await mint(account, deploymentId, { securityContext: { statuses: ['returned'] } });
        const first = await get(shipped);
        expect(first.status, first.text).toBe(200);
        expect(full()).toBe(1);
        const again = await get(shipped);
        expect(again.status).toBe(200);
        expect(again.text).toBe(first.text);
        expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(full()).toBe(1);

        const other = await get(returned);
        expect(other.status).toBe(200);
        expect(full()).toBe(2);
        expect(other.body.data).not.toEqual(first.body.data);
        expect((await get(returned)).text).toBe(other.text);
        expect((await get(shipped)).text).toBe(first.text);
        expect(full()).toBe(2);
        // The same token with the scheme word is another header: the full way, the same answer.
        expect((await get(`Bearer ${shipped}`)).body.data).toEqual(first.body.data);
        expect(full()).toBe(3);
      } finally {
        restore();
      }
    });

    it('a cached answer is refused with a token of another deployment (of the account or another), on another account’s host, and once its token has expired', async () => {
      const { account, deploymentId, get, full, restore } = await setup(server());
      try {
        const token = await mint(account, deploymentId, { securityContext: { statuses: ['shipped'] }, expiresIn: 60 });
        expect((await get(token)).status).toBe(200);
        expect((await get(token)).status).toBe(200);
        expect(full()).toBe(1);
        const other = await sampleDeployment(server(), server().services.dataApi, FILES);
        const foreign = await mint(other.account, other.deploymentId, { securityContext: { statuses: ['shipped'] } });
        expect(await get(foreign)).toMatchObject({ status: 403, body: { error: 'Invalid token' } });
        const sibling = await mint(account, await newDeployment(account), { securityContext: { statuses: ['shipped'] } });
        expect(await get(sibling)).toMatchObject({ status: 403, body: { error: 'Invalid token' } });
        const stranger = await server().newAccount();
        expect((await get(token, QUERY, stranger)).status).toBe(403);
        vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(Date.now() + 120_000);
        expect(await get(token)).toMatchObject({ status: 403, body: { error: 'Invalid token' } });
      } finally {
        restore();
      }
    });

    it('a new build of the deploy branch is served at once, and the response cache gives the new answer after it', async () => {
      const { account, deploymentId, get, full, restore } = await setup(server());
      try {
        const token = await mint(account, deploymentId, { securityContext: { statuses: ['shipped'] } });
        const before = await get(token);
        expect((await get(token)).text).toBe(before.text);
        expect(full()).toBe(1);
        await commitFiles(server().services, adminOf(account), deploymentId, {
          ...FILES,
          'model/scoped.yml': scopedCube("status <> 'shipped'"),
        });
        await server().jobs.runUntilIdle();
        const after = await get(token);
        expect(after.status).toBe(200);
        expect(full()).toBe(2);
        expect(after.body.data).not.toEqual(before.body.data);
        expect((await get(token)).text).toBe(after.text);
        expect(full()).toBe(2);
      } finally {
        restore();
      }
    });

    it('on a listening server, a repeat is answered before Fastify with the same bytes and response-policy headers; a disabled account is not', async () => {
      const s = server();
      const { account, deploymentId, full, restore } = await setup(s);
      const listener = s.app.responseCacheListener;
      await new Promise<void>((resolve) => s.app.server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = s.app.server.address() as { port: number };
        const token = await mint(account, deploymentId);
        const path = `/d/${deploymentId}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(QUERY))}`;
        // node:http, since fetch may not set Host, and the account is the Host's.
        const get = () => overHttp(port, path, { host: account.host, authorization: token });
        await notificationsDelivered(s);
        const first = await get();
        expect(first.status, first.text).toBe(200);
        expect(listener.answered).toBe(0);
        const fullBefore = full();
        const again = await get();
        expect(again.status).toBe(200);
        expect(again.text).toBe(first.text);
        expect(listener.answered).toBe(1);
        // The cached answer ran no load of its own.
        expect(full()).toBe(fullBefore);
        const without = (headers: Record<string, unknown>) => {
          const { date: _date, 'x-request-id': id, ...rest } = headers;
          return { ...rest, 'x-request-id': typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id) };
        };
        // Every header alike, value for value (the request id is a new one of the same form).
        expect(without(again.headers)).toEqual(without(first.headers));
        expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);

        // A disabled account's host is refused on the whole way, never answered by the cache.
        await s.store.db.updateTable('account').set({ disabled_at: new Date() }).where('id', '=', account.id).execute();
        s.services.accounts.forgetAll();
        const refused = await get();
        expect(refused.status).toBe(403);
        expect(listener.answered).toBe(1);
      } finally {
        restore();
        await new Promise<void>((resolve) => s.app.server.close(() => resolve()));
      }
    });

    it('a query asking for fresh data always goes the full way', async () => {
      const { account, deploymentId, get, full, restore } = await setup(server());
      try {
        const token = await mint(account, deploymentId);
        for (const query of [
          { ...QUERY, renewQuery: true },
          { ...QUERY, cache: 'no-cache' },
        ]) {
          const before = full();
          expect((await get(token, query)).status).toBe(200);
          expect((await get(token, query)).status).toBe(200);
          expect(full()).toBe(before + 2);
        }
      } finally {
        restore();
      }
    });
  },
  { ...dataDirOverride() },
);
