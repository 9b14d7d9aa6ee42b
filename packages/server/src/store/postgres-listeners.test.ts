import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore } from '../test-support/stores.js';
import { startTestServer } from '../test-support/server.js';

/**
 * pg warns (and pg 9 fails) when a second query is sent to a client still running one. The LISTEN
 * connection is shared by every cache of the process, so its statements must run one at a time.
 */
describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL: one query at a time on each client', () => {
  let warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  // Node prints a deprecation once per process, so the warning alone would catch only the first
  // overlap of the file: pg's own condition for it is checked on every query as well.
  const query = pg.Client.prototype.query;
  beforeEach(() => {
    warnings = [];
    process.on('warning', onWarning);
    pg.Client.prototype.query = function (this: pg.Client & { _queryQueue: unknown[]; pipeline?: boolean }, ...args: unknown[]) {
      if (this._queryQueue.length > 0 && !this.pipeline)
        warnings.push(`overlapping query: ${String((args[0] as { text?: string })?.text ?? args[0]).slice(0, 80)}`);
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });
  afterEach(() => {
    process.off('warning', onWarning);
    pg.Client.prototype.query = query;
  });
  /** process.emitWarning emits on the next tick, so every warning of what ran has arrived by the next turn of the loop. */
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('channels added together are all listened to, with no overlapping queries', async () => {
    const store = await openTestStore('postgres');
    try {
      const heard: string[] = [];
      const channels = ['plinth_a', 'plinth_b', 'plinth_c', 'plinth_d', 'plinth_e'];
      await Promise.all(channels.map((channel) => store.listen(channel, (payload) => heard.push(`${channel}:${payload}`))));
      for (const channel of channels) await sql`select pg_notify(${channel}, '7')`.execute(store.db);
      await expect.poll(() => heard.sort(), { timeout: 5000 }).toEqual(channels.map((c) => `${c}:7`));
      await settled();
      expect(warnings).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('a server starts and answers on PostgreSQL without a pg warning', async () => {
    const server = await startTestServer('postgres');
    try {
      const account = await server.newAccount();
      const responses = await Promise.all([
        account.request({ method: 'GET', url: '/api/v1/users', as: account.admin }),
        account.request({ method: 'GET', url: '/api/v1/deployments', as: account.admin }),
        account.request({ method: 'POST', url: '/api/v1/user-groups', as: account.admin, body: { name: 'g' } }),
      ]);
      expect(responses.map((r) => r.status)).toEqual([200, 200, 201]);
      await settled();
      expect(warnings).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
