import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TcpProxy, type CutKind } from '../test-support/tcp-proxy.js';
import { PostgresWarehouse, WarehouseUnreachableError } from './postgres.js';

const url = process.env.DATABASE_URL;
/** Names this file's connections in pg_stat_activity, to see its query running and to end what it leaves. */
const APPLICATION = `plinth-outage-${randomBytes(4).toString('hex')}`;
const SLOW = 'select pg_sleep(5)';

describe.skipIf(!url)('PostgresWarehouse: a warehouse that goes away fails queries, never the process, and serves again once back', () => {
  let proxy: TcpProxy;
  let direct: pg.Client;
  // An 'error' event nobody listens to is thrown from the socket's callback: an uncaught exception.
  const crashes: unknown[] = [];
  const onCrash = (error: unknown) => void crashes.push(error);
  let secret = 'secret';

  beforeAll(async () => {
    const target = new URL(url!);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    direct = new pg.Client({ connectionString: url });
    await direct.connect();
    process.on('uncaughtExceptionMonitor', onCrash);
  });
  afterAll(async () => {
    process.off('uncaughtExceptionMonitor', onCrash);
    // A cut statement runs on in its backend until it next writes to the dead socket.
    await direct.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [APPLICATION]);
    await direct.end();
    await proxy.close();
  });

  /** A warehouse reached through the proxy, with a password in its connection string that no message may show. */
  function throughProxy(warnings: string[]): PostgresWarehouse {
    const address = new URL(url!);
    address.hostname = '127.0.0.1';
    address.port = String(proxy.port);
    // The test server trusts local connections, so any password does; one that is set is kept.
    address.password ||= 'secret';
    secret = decodeURIComponent(address.password);
    address.searchParams.set('application_name', APPLICATION);
    return new PostgresWarehouse({ connectionString: address.toString(), max: 2, warn: (message) => warnings.push(message) });
  }

  /** Waits until the warehouse runs `sql` for this file, seen from a connection of its own. */
  async function untilRunning(sql: string): Promise<void> {
    const seen = 'select 1 from pg_stat_activity where application_name = $1 and state = $2 and query = $3';
    while ((await direct.query(seen, [APPLICATION, 'active', sql])).rows.length === 0);
  }

  function expectClear(error: unknown, message: string, warnings: string[]): void {
    expect(error).toBeInstanceOf(WarehouseUnreachableError);
    expect((error as Error).message).toContain(message);
    for (const text of [(error as Error).message, ...warnings]) expect(text).not.toContain(secret);
  }

  it.each<CutKind>(['close', 'reset'])('cut (%s) while a query runs: the query fails, the next one runs', async (kind) => {
    const warnings: string[] = [];
    const warehouse = throughProxy(warnings);
    try {
      const running = warehouse.query(SLOW, []).catch((error: unknown) => error);
      await untilRunning(SLOW);
      proxy.cut(kind);
      expectClear(await running, `The connection to the PostgreSQL warehouse at 127.0.0.1:${proxy.port} was lost: `, warnings);
      expect((await warehouse.query('select 42 as answer', [])).rows).toEqual([{ answer: 42 }]);
      expect(warnings).toEqual([
        expect.stringContaining(`PostgreSQL warehouse at 127.0.0.1:${proxy.port}: a connection was lost`),
        `PostgreSQL warehouse at 127.0.0.1:${proxy.port} answers again`,
      ]);
      expect(crashes).toEqual([]);
    } finally {
      await warehouse.close();
    }
  });

  it.each<CutKind>(['close', 'reset'])('cut (%s) while idle and gone: queries fail until it is back, then run', async (kind) => {
    const warnings: string[] = [];
    const warehouse = throughProxy(warnings);
    try {
      await warehouse.query('select 1', []);
      expect(warehouse.pool.idleCount).toBe(1);
      const dropped = once(warehouse.pool, 'remove');
      proxy.refuse(kind);
      await dropped;
      const refused = await warehouse.query('select 1', []).catch((error: unknown) => error);
      expectClear(refused, `Cannot connect to the PostgreSQL warehouse at 127.0.0.1:${proxy.port}: `, warnings);
      proxy.accept();
      expect((await warehouse.query('select 42 as answer', [])).rows).toEqual([{ answer: 42 }]);
      expect(warnings).toEqual([
        expect.stringContaining(`PostgreSQL warehouse at 127.0.0.1:${proxy.port}: a connection was lost`),
        `PostgreSQL warehouse at 127.0.0.1:${proxy.port} answers again`,
      ]);
      expect(crashes).toEqual([]);
    } finally {
      proxy.accept();
      await warehouse.close();
    }
  });

  it('the warehouse ends its connections itself, as on shutdown: the running query fails, the next one runs', async () => {
    const warnings: string[] = [];
    const warehouse = throughProxy(warnings);
    try {
      await warehouse.query('select 1', []);
      const running = warehouse.query(SLOW, []).catch((error: unknown) => error);
      await untilRunning(SLOW);
      const dropped = once(warehouse.pool, 'remove');
      await direct.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [APPLICATION]);
      expectClear(await running, 'was lost: terminating connection due to administrator command', warnings);
      await dropped;
      expect((await warehouse.query('select 42 as answer', [])).rows).toEqual([{ answer: 42 }]);
      expect(crashes).toEqual([]);
    } finally {
      await warehouse.close();
    }
  });
});
