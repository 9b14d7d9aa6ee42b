import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { openTestStoreAgain } from '../../test-support/stores.js';
import type { Store } from '../../store/store.js';
import { FollowStream, type FollowOptions } from './follow.js';
import { notifyLine } from './notifications.js';
import type { DeploymentLogLine } from './schemas.js';
import { DeploymentLogService } from './service.js';

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

/** Longer than any test: a line that arrives came because the store told, not because a follow re-read on its own. */
const NEVER = 3_600_000;

/** Collects a follow's body as text. */
function collect(stream: FollowStream) {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
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
      server().services.deploymentLogs.followTiming = { rereadMs: NEVER };
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

    it('streams the backlog, then a line appended after the request started, and stops listening when the client goes', async () => {
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
      expect(services.deploymentLogs.notifications.size).toBe(0);
    });

    it('many follows share one listener of the process, and the store wakes each with a new line', async () => {
      const { account, deployment, append } = await fixture();
      const { ctx } = server().services.deploymentLogs;
      let listens = 0;
      const store: Store = { ...ctx.store, listen: (channel, onMessage) => ((listens += 1), ctx.store.listen(channel, onMessage)) };
      const logs = new DeploymentLogService({ ...ctx, store });
      logs.followTiming = { rereadMs: NEVER };
      const streams = await Promise.all([1, 2, 3].map(() => logs.follow(account.id, deployment.id, { source: 'production' })));
      const texts = streams.map(collect);
      expect(listens).toBe(1);
      expect(logs.notifications.size).toBe(3);
      await append('for everyone');
      await until(() => texts.every((text) => text().includes('for everyone')));
      for (const stream of streams) stream.destroy();
      expect(logs.notifications.size).toBe(0);
      expect(streams.map((stream) => stream.running)).toEqual([false, false, false]);
    });

    it('on PostgreSQL, a line of another process arrives, and so does one written while the listener was reconnecting', async (test) => {
      if (server().kind !== 'postgres') return test.skip();
      const { account, deployment } = await fixture();
      const { services, store } = server();
      const stream = await services.deploymentLogs.follow(account.id, deployment.id, {});
      const text = collect(stream);
      const other = await openTestStoreAgain(store);
      try {
        const insert = (message: string) =>
          other.db
            .insertInto('build_log')
            .values({
              account_id: account.id,
              deployment_id: deployment.id,
              source: 'production',
              pod: 'p2',
              container: 'c',
              level: 'info',
              message,
            })
            .execute();
        await insert('from another process');
        await sql`select ${notifyLine(account.id, deployment.id)}`.execute(other.db);
        await until(() => text().includes('from another process'));
        // The listener's connection drops; a line written then, with no notification at all, is read once it listens again.
        await sql`select pg_terminate_backend(pid) from pg_stat_activity
                  where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen %'`.execute(other.db);
        await insert('while reconnecting');
        await until(() => text().includes('while reconnecting'));
      } finally {
        stream.destroy();
        await other.close();
      }
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

/** A follow that nothing wakes but the test, with no lines to read. */
const quiet: Omit<FollowOptions, 'read'> = { backlog: [], cursor: 0, pageSize: 100, subscribe: () => () => {}, rereadMs: NEVER };

const line = (id: number) =>
  ({ id, at: '', source: 'production', pod: 'p', container: 'builder', level: 'info', buildId: null, message: `m${id}` }) as const;

/** A read the test answers when it wants, and the wake the follow subscribed. */
function controlled() {
  const reads: Array<{ after: number; answer(lines: DeploymentLogLine[]): void }> = [];
  let wake = () => {};
  let unsubscribed = false;
  const options: FollowOptions = {
    ...quiet,
    read: (after) => new Promise((answer) => reads.push({ after, answer })),
    subscribe: (onWake) => {
      wake = onWake;
      return () => (unsubscribed = true);
    },
  };
  return { options, reads, wake: () => wake(), unsubscribed: () => unsubscribed };
}

it('a follow reads once at its start, then only when woken; wakes during a read make one more read after it', async () => {
  const { options, reads, wake, unsubscribed } = controlled();
  const stream = new FollowStream(options);
  const text = collect(stream);
  expect(reads.map((r) => r.after)).toEqual([0]);
  wake();
  wake();
  reads[0]!.answer([line(1)]);
  await until(() => reads.length === 2);
  expect(reads[1]!.after).toBe(0);
  reads[1]!.answer([line(1), line(2)]);
  await until(() => text().includes('m2'));
  await new Promise((resolve) => setImmediate(resolve));
  expect(reads.length).toBe(2);
  expect(text().match(/"m\d"/g)).toEqual(['"m1"', '"m2"']);
  stream.destroy();
  expect(unsubscribed()).toBe(true);
  expect(stream.running).toBe(false);
});

it('a read that fills its page is followed at once by a read of the next page', async () => {
  const lines = [1, 2, 3, 4, 5].map(line);
  const stream = new FollowStream({ ...quiet, pageSize: 2, read: async (after) => lines.filter((l) => l.id > after).slice(0, 2) });
  const text = collect(stream);
  await until(() => text().includes('m5'));
  stream.destroy();
  expect(text().match(/"m\d"/g)).toEqual(['"m1"', '"m2"', '"m3"', '"m4"', '"m5"']);
});

it('a follow sends a blank line as heartbeat, starts with one when there is no backlog, and ends cleanly', async () => {
  const chunks: string[] = [];
  const stream = new FollowStream({ ...quiet, read: async () => [], heartbeatMs: 20 });
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  await until(() => chunks.length >= 3);
  expect(new Set(chunks)).toEqual(new Set(['\n']));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  stream.finish();
  await ended;
  expect(stream.running).toBe(false);
});

it('a follow whose read fails ends with the error and stops its timers', async () => {
  const stream = new FollowStream({ ...quiet, read: async () => Promise.reject(new Error('store closed')) });
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
  return { account, key, deployment, append };
}

it.each([
  [60_000, ['m2', 'm1', 'm3']],
  // Past the settling time a smaller id is taken as never coming: reads start after the sent ids.
  [0, ['m2', 'm3']],
])('a line whose id was given before one already sent, but committed after it (settling %i ms): %j', async (settleMs, expected) => {
  // What the table shows: id 2 committed first; id 1 (an append of another process) commits later.
  const visible: DeploymentLogLine[] = [line(2)];
  let reads = 0;
  let wake = () => {};
  const stream = new FollowStream({
    ...quiet,
    read: async (after) => {
      reads += 1;
      return visible.filter((l) => l.id > after);
    },
    subscribe: (onWake) => ((wake = onWake), () => {}),
    settleMs,
  });
  const text = collect(stream);
  await until(() => text().includes('m2'));
  visible.unshift(line(1));
  visible.push(line(3));
  wake();
  await until(() => text().includes('m3'));
  // A few more reads: any line still to come (m1, with no settling time) would have come by then.
  for (let i = 0; i < 3; i++) {
    const seen = reads;
    wake();
    await until(() => reads > seen);
  }
  stream.destroy();
  expect(
    text()
      .split('\n')
      .filter(Boolean)
      .map((json) => JSON.parse(json).message),
  ).toEqual(expected);
});
