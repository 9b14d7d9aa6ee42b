import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { FollowStream } from './follow.js';
import type { DeploymentLogLine } from './schemas.js';

const TENANT = 'logsfollow';

/** Reads an ndjson body line by line; blank lines (heartbeats) are counted, not returned. */
function lineReader(body: ReadableStream<Uint8Array>) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let heartbeats = 0;
  return {
    get heartbeats() {
      return heartbeats;
    },
    async next(): Promise<DeploymentLogLine> {
      for (;;) {
        const end = buffered.indexOf('\n');
        if (end >= 0) {
          const text = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          if (text === '') heartbeats++;
          else return JSON.parse(text);
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffered += value;
      }
    },
  };
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
};

// Listens on a real port: a follow never ends, so it cannot be injected. No base domain: the
// account is the default one, reached by IP, as the CLI tests do.
describeOnStores(
  'deployment logs: follow',
  (server) => {
    let url = '';
    beforeAll(async () => {
      await server().app.listen({ port: 0, host: '127.0.0.1' });
      const address = server().app.server.address();
      url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    afterAll(() => {
      expect(server().services.deploymentLogs.follows.size).toBe(0);
      // After an abort, fetch (undici) opens a fresh connection that never sends a request; Node
      // closes only idle connections that served one, so app.close would wait for its headers
      // timeout (70 s). Nothing is in flight any more: close them all.
      server().app.server.closeAllConnections();
    });

    /** The default account (reached by IP), a member's key and a deployment, made once per store. */
    let made: Awaited<ReturnType<typeof setUp>> | undefined;
    const fixture = async () => (made ??= await setUp(server()));

    it('streams the backlog, then a line appended after the request started, and stops polling when the client goes', async () => {
      const { services } = server();
      const { key, deployment, append } = await fixture();
      await append('before');

      const abort = new AbortController();
      const response = await fetch(`${url}/api/v1/deployments/${deployment.id}/logs?follow=true&source=production`, {
        headers: { authorization: `Api-Key ${key.key}` },
        signal: abort.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
      const lines = lineReader(response.body!);
      expect((await lines.next()).message).toBe('before');

      await append('a dev line the filter leaves out', 'dev');
      await append('after');
      expect(await lines.next()).toMatchObject({ message: 'after', source: 'production', pod: 'pod-1' });

      const [stream] = services.deploymentLogs.follows;
      expect(stream!.running).toBe(true);
      abort.abort();
      await until(() => services.deploymentLogs.follows.size === 0);
      expect(stream!.running).toBe(false);
    });

    it('a closing server ends its follows cleanly instead of waiting for them', async () => {
      const { key, deployment } = await fixture();
      const { config, store, services } = server();
      // A second app on the same store: closing it must not wait for the follow it serves.
      const other = await buildApp({ config, store, services, log: false });
      await other.listen({ port: 0, host: '127.0.0.1' });
      const address = other.server.address();
      const otherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const response = await fetch(`${otherUrl}/api/v1/deployments/${deployment.id}/logs?follow=true`, {
        headers: { authorization: `Api-Key ${key.key}` },
      });
      const lines = lineReader(response.body!);
      await lines.next();
      await other.close();
      const rest = async () => {
        for (;;) await lines.next();
      };
      await expect(rest()).rejects.toThrow('the stream ended');
      expect(services.deploymentLogs.follows.size).toBe(0);
    });
  },
  { PLINTH_TENANT: TENANT, PLINTH_BASE_DOMAIN: '' },
);

it('a follow sends a blank line as heartbeat, starts with one when there is no backlog, and ends cleanly', async () => {
  const chunks: string[] = [];
  const stream = new FollowStream({ backlog: [], cursor: 0, read: async () => [], pollMs: 5, heartbeatMs: 20 });
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  await until(() => chunks.length >= 3);
  expect(new Set(chunks)).toEqual(new Set(['\n']));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  stream.finish();
  await ended;
  expect(stream.running).toBe(false);
});

it('a follow whose poll fails ends with the error and stops its timers', async () => {
  const stream = new FollowStream({ backlog: [], cursor: 0, read: async () => Promise.reject(new Error('store closed')), pollMs: 5 });
  stream.resume();
  const failed = new Promise<Error>((resolve) => stream.on('error', resolve));
  expect((await failed).message).toBe('store closed');
  expect(stream.running).toBe(false);
});

async function setUp({ services }: TestServer) {
  const account = await services.accounts.create(TENANT);
  const user = await services.users.create(account.id, { email: 'f@example.com', role: 'member', displayName: 'F' });
  const key = await services.credentials.createApiKey(account.id, user.id, { name: 'k', role: 'member', deploymentIds: null });
  const deployment = await services.deployments.create(account.id, { name: 'd' }, 'http://127.0.0.1');
  const append = (message: string, source: 'production' | 'dev' = 'production') =>
    services.deploymentLogs.append({
      accountId: account.id,
      deploymentId: deployment.id,
      source,
      pod: 'pod-1',
      container: 'builder',
      level: 'info',
      message,
    });
  return { key, deployment, append };
}

it.each([
  [60_000, ['m2', 'm1', 'm3']],
  // Past the settling time a smaller id is taken as never coming: polls read after the sent ids.
  [0, ['m2', 'm3']],
])('a line whose id was given before one already sent, but committed after it (settling %i ms): %j', async (settleMs, expected) => {
  const line = (id: number) =>
    ({ id, at: '', source: 'production', pod: 'p', container: 'builder', level: 'info', buildId: null, message: `m${id}` }) as const;
  // What the table shows: id 2 committed first; id 1 (an append of another process) commits later.
  const visible = [line(2)];
  let polls = 0;
  const stream = new FollowStream({
    backlog: [],
    cursor: 0,
    read: async (after) => {
      polls += 1;
      return visible.filter((l) => l.id > after);
    },
    pollMs: 5,
    heartbeatMs: 60_000,
    settleMs,
  });
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  await until(() => text.includes('m2'));
  visible.unshift(line(1));
  visible.push(line(3));
  await until(() => text.includes('m3'));
  // A few more polls: any line still to come (m1, with no settling time) would have come by then.
  const seen = polls;
  await until(() => polls >= seen + 3);
  stream.destroy();
  expect(
    text
      .split('\n')
      .filter(Boolean)
      .map((json) => JSON.parse(json).message),
  ).toEqual(expected);
});
