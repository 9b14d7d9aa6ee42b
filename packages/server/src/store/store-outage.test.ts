import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TcpProxy, type CutKind } from '../../../semantic/src/test-support/tcp-proxy.js';
import { openStore, type Store } from './store.js';

const url = process.env.DATABASE_URL;
/** Names this file's connections in pg_stat_activity, to see its statement running. */
const APPLICATION = `plinth-store-outage-${randomBytes(4).toString('hex')}`;

// The metadata store is every tenant's: a lost connection fails the statement on it, never the process.
describe.skipIf(!url)('the PostgreSQL store when its connections are cut', () => {
  let proxy: TcpProxy;
  let direct: pg.Client;
  let store: Store;
  // An 'error' event nobody listens to is thrown from the socket's callback: an uncaught exception.
  const crashes: string[] = [];
  const onCrash = (error: unknown) => void crashes.push(error instanceof Error ? error.message : String(error));
  let statements = 0;

  beforeAll(async () => {
    const target = new URL(url!);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    direct = new pg.Client({ connectionString: url });
    await direct.connect();
    const proxied = new URL(url!);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    proxied.searchParams.set('application_name', APPLICATION);
    store = await openStore({ kind: 'postgres', url: proxied.toString(), poolSize: 2 });
    process.on('uncaughtExceptionMonitor', onCrash);
  });
  afterAll(async () => {
    process.off('uncaughtExceptionMonitor', onCrash);
    await store.close();
    await direct.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [APPLICATION]);
    await direct.end();
    await proxy.close();
  });

  it.each<CutKind>(['close', 'reset'])('cut (%s) while a statement runs: it fails, the next one runs', async (kind) => {
    const text = `select pg_sleep(5) as slept_${++statements}`;
    const running = sql
      .raw(text)
      .execute(store.db)
      .catch((error: unknown) => error);
    const seen = 'select 1 from pg_stat_activity where application_name = $1 and state = $2 and query = $3';
    while ((await direct.query(seen, [APPLICATION, 'active', text])).rows.length === 0);
    proxy.cut(kind);
    expect(await running).toBeInstanceOf(Error);
    const answer = await sql<{ answer: number }>`select 42 as answer`.execute(store.db);
    expect(answer.rows).toEqual([{ answer: 42 }]);
    expect(crashes).toEqual([]);
  });
});
