import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TcpProxy, type CutKind } from '../test-support/tcp-proxy.js';
import { PostgresWarehouse, WarehouseUnreachableError } from './postgres.js';

const url = process.env.DATABASE_URL;
/** Names this file's connections in pg_stat_activity, to see its query running and to end what it leaves. */
const APPLICATION = `plinth-outage-${randomBytes(4).toString('hex')}`;
let statements = 0;
/** A statement that runs long enough to be cut, told apart from an earlier test's that its backend still runs. */
const slow = () => `select pg_sleep(5) as slept_${++statements}`;

describe.skipIf(!url)('PostgresWarehouse: a warehouse that goes away fails queries, never the process, and serves again once back', () => {
  let proxy: TcpProxy;
  let direct: pg.Client;
  // An 'error' event nobody listens to is thrown from the socket's callback: an uncaught exception.
  const crashes: string[] = [];
  const onCrash = (error: unknown) => void crashes.push(error instanceof Error ? error.message : String(error));
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
  beforeEach(() => {
    crashes.length = 0;
  });
  // A connection's late 'error', after its test's last step, would crash the process as well.
  afterEach(() => expect(crashes).toEqual([]));

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

  /**
   * The pool's next dropped connection. Not events.once: it would listen for 'error' on the pool,
   * the very event whose lack of a listener this file is about.
   */
  const removal = (warehouse: PostgresWarehouse) => new Promise((resolve) => warehouse.pool.once('remove', resolve));

  function expectClear(error: unknown, message: string, warnings: string[]): void {
    expect(error).toBeInstanceOf(WarehouseUnreachableError);
    expect((error as Error).message).toContain(message);
    for (const text of [(error as Error).message, ...warnings]) expect(text).not.toContain(secret);
  }

  it.each<CutKind>(['close', 'reset'])('cut (%s) while a query runs: the query fails, the next one runs', async (kind) => {
    const warnings: string[] = [];
    const warehouse = throughProxy(warnings);
    try {
      const sql = slow();
      const running = warehouse.query(sql, []).catch((error: unknown) => error);
      await untilRunning(sql);
      proxy.cut(kind);
      const failed = await running;
      expect(crashes).toEqual([]);
      expectClear(failed, `The connection to the PostgreSQL warehouse at 127.0.0.1:${proxy.port} was lost: `, warnings);
      expect((await warehouse.query('select 42 as answer', [])).rows).toEqual([{ answer: 42 }]);
      expect(warnings).toEqual([
        expect.stringContaining(`PostgreSQL warehouse at 127.0.0.1:${proxy.port}: a connection was lost`),
        `PostgreSQL warehouse at 127.0.0.1:${proxy.port} answers again`,
      ]);
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
      const dropped = removal(warehouse);
      proxy.refuse(kind);
      await dropped;
      expect(crashes).toEqual([]);
      const refused = await warehouse.query('select 1', []).catch((error: unknown) => error);
      expectClear(refused, `Cannot connect to the PostgreSQL warehouse at 127.0.0.1:${proxy.port}: `, warnings);
      proxy.accept();
      expect((await warehouse.query('select 42 as answer', [])).rows).toEqual([{ answer: 42 }]);
      expect(warnings).toEqual([
        expect.stringContaining(`PostgreSQL warehouse at 127.0.0.1:${proxy.port}: a connection was lost`),
        `PostgreSQL warehouse at 127.0.0.1:${proxy.port} answers again`,
      ]);
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
      const sql = slow();
      const running = warehouse.query(sql, []).catch((error: unknown) => error);
      await untilRunning(sql);
      const dropped = removal(warehouse);
      await direct.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [APPLICATION]);
      expectClear(await running, 'was lost: terminating connection due to administrator command', warnings);
      await dropped;
      expect(crashes).toEqual([]);
      expect((await warehouse.query('select 42 as answer', [])).rows).toEqual([{ answer: 42 }]);
    } finally {
      await warehouse.close();
    }
  });
});
