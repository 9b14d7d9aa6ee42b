import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PostgresWarehouse } from '@plinth/semantic';
import { TcpProxy } from '../../../../semantic/src/test-support/tcp-proxy.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { adminOf, commitFiles, newDeployment } from '../builds/test-fixtures.js';

const url = process.env.DATABASE_URL;
/** The deployment's warehouse password, which no answer may show: the test server trusts local connections, so any will do. */
const password = () => decodeURIComponent(new URL(url!).password) || 'outage-secret';
let loads = 0;
/** Another query each time, so each runs on the warehouse: the result cache answers a repeat, even a renew's, and an error for a while. */
const words = () => ({ measures: ['numbers.count'], dimensions: ['numbers.word'], limit: 100 + ++loads });
const ONE = [{ 'numbers.word': 'one', 'numbers.count': '1' }];
const SLOW = { measures: ['slow.count'] };

/** Cubes on no table at all, one of them slow enough to be cut, marked so its statement can be found running. */
const model = (marker: string) => `cubes:
  - name: numbers
    sql: SELECT 1 AS id, 'one' AS word
    measures:
      - name: count
        type: count
    dimensions:
      - name: word
        sql: word
        type: string
  - name: slow
    sql: SELECT 1 AS id, '${marker}' AS marker FROM pg_sleep(30)
    measures:
      - name: count
        type: count
`;

describeOnStores(
  'data API: a PostgreSQL warehouse that goes away answers 400s, never ends the process, and serves again once back',
  (server) => {
    let proxy: TcpProxy;
    let direct: pg.Client;
    // An 'error' event nobody listens to is thrown from the socket's callback: an uncaught exception.
    const crashes: string[] = [];
    const onCrash = (error: unknown) => void crashes.push(error instanceof Error ? error.message : String(error));
    const marker = `plinth_outage_${randomBytes(4).toString('hex')}`;
    const active = "from pg_stat_activity where state = 'active' and pid <> pg_backend_pid() and strpos(query, $1) > 0";

    beforeAll(async () => {
      if (!url) return;
      const target = new URL(url);
      proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
      direct = new pg.Client({ connectionString: url });
      await direct.connect();
      process.on('uncaughtExceptionMonitor', onCrash);
    });
    afterAll(async () => {
      if (!url) return;
      process.off('uncaughtExceptionMonitor', onCrash);
      // The cut statement runs on in its backend until it next writes to the dead socket.
      await direct.query(`select pg_terminate_backend(pid) ${active}`, [marker]);
      await direct.end();
      await proxy.close();
    });

    /** A deployment whose CUBEJS_DB_* variables name the warehouse behind the proxy, built, and a token for it. */
    async function deployment(account: TestAccount) {
      const target = new URL(url!);
      const deploymentId = await newDeployment(account);
      const variables = Object.entries({
        CUBEJS_DB_TYPE: 'postgres',
        CUBEJS_DB_HOST: '127.0.0.1',
        CUBEJS_DB_PORT: String(proxy.port),
        CUBEJS_DB_NAME: decodeURIComponent(target.pathname.slice(1)),
        CUBEJS_DB_USER: decodeURIComponent(target.username),
        CUBEJS_DB_PASS: password(),
      }).map(([name, value]) => ({ name, value }));
      await server().services.deploymentVariables.set(account.id, deploymentId, { variables });
      await commitFiles(server().services, adminOf(account), deploymentId, { 'model/outage.yml': model(marker) });
      await server().jobs.runUntilIdle();
      const minted = await account.request({
        method: 'POST',
        url: `/api/v1/deployments/${deploymentId}/token`,
        as: account.admin,
        body: {},
      });
      if (minted.status !== 200) throw new Error(`token: ${minted.status} ${minted.text}`);
      return { deploymentId, token: minted.body.cubeApiToken as string };
    }

    /** The deployment's pooled warehouse, as the data API holds it. */
    async function warehouseOf(accountId: number, deploymentId: number) {
      const { services } = server();
      const config = await services.deploymentVariables.warehouseConfig(accountId, deploymentId);
      return (await services.dataApi.warehouses.get(accountId, deploymentId, config)) as PostgresWarehouse;
    }

    it.skipIf(!url)('cut mid-query, then gone while idle: each load is a clear 400, and the first after its return answers', async () => {
      const account = await server().newAccount();
      const { deploymentId, token } = await deployment(account);
      const load = (query: object) =>
        account.request({ method: 'POST', url: `/d/${deploymentId}/cubejs-api/v1/load`, as: token, body: { query } });
      const where = `PostgreSQL warehouse at 127.0.0.1:${proxy.port}`;
      expect((await load(words())).body.data).toEqual(ONE);

      const slow = load(SLOW);
      while ((await direct.query(`select 1 ${active}`, [marker])).rows.length === 0);
      proxy.cut();
      const cut = await slow;
      expect(crashes).toEqual([]);
      expect([cut.status, cut.body.error]).toEqual([400, expect.stringContaining(`The connection to the ${where} was lost: `)]);
      expect((await load(words())).body.data).toEqual(ONE);

      // The load above left its connection idle in the pool; the warehouse going away drops it.
      const pool = (await warehouseOf(account.id, deploymentId)).pool;
      const dropped = new Promise((resolve) => pool.once('remove', resolve));
      proxy.refuse('reset');
      await dropped;
      expect(crashes).toEqual([]);
      const away = await load(words());
      expect([away.status, away.body.error]).toEqual([400, expect.stringContaining(`Cannot connect to the ${where}: `)]);

      proxy.accept();
      const back = await load(words());
      expect([back.status, back.body.data]).toEqual([200, ONE]);
      for (const answer of [cut, away, back]) expect(answer.text).not.toContain(password());
      expect(crashes).toEqual([]);
    });
  },
);
