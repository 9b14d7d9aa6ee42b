import type { AddressInfo } from 'node:net';
import Cursor from 'pg-cursor';
import pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { asToken, dataDirOverride, gateWarehouse } from '../data-api/test-fixtures.js';
import { connect, listen, sqlDeployment } from './test-fixtures.js';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ code: 'none', message: '' }),
    (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
  );

describeOnStores(
  'SQL API over node-postgres',
  (server) => {
    let address: AddressInfo;
    let set: Awaited<ReturnType<typeof sqlDeployment>>;
    beforeAll(async () => {
      address = await listen(server());
      set = await sqlDeployment(server(), address);
    });

    const load = async (query: Record<string, unknown>) =>
      ((await server().services.dataApi.load(...asToken(set.principal), query)) as { data: Array<Record<string, unknown>> }).data;

    it('answers a query over a cube with the data API answer, as the environment SQL user (SCRAM)', async () => {
      const client = await connect(set.login);
      try {
        const result = await client.query('SELECT status, MEASURE(count) AS n FROM orders GROUP BY 1 ORDER BY 1');
        expect(result.fields.map((f) => [f.name, f.dataTypeID])).toEqual([
          ['status', 25],
          ['n', 20],
        ]);
        const expected = await load({ measures: ['orders.count'], dimensions: ['orders.status'], order: [['orders.status', 'asc']] });
        expect(result.rows.map((r) => [r.status, String(r.n)])).toEqual(
          expected.map((r) => [r['orders.status'], String(r['orders.count'])]),
        );
      } finally {
        await client.end();
      }
    });

    it('prepared statements with parameters, named and reused, in text and in binary', async () => {
      for (const binary of [false, true]) {
        // `binary` (pg asks for every result column in binary) is a pg option its types do not list.
        const client = new pg.Client({ ...set.login, binary } as pg.ClientConfig);
        await client.connect();
        try {
          const statement = { name: 'by-status', text: 'SELECT status, MEASURE(count) AS n FROM orders WHERE status = $1 GROUP BY 1' };
          const first = await client.query({ ...statement, values: ['completed'] });
          const again = await client.query({ ...statement, values: ['completed'] });
          expect(again.rows).toEqual(first.rows);
          const expected = await load({
            measures: ['orders.count'],
            filters: [{ member: 'orders.status', operator: 'equals', values: ['completed'] }],
          });
          expect(first.rows.map((r) => [r.status, String(r.n)])).toEqual([['completed', String(expected[0]!['orders.count'])]]);
        } finally {
          await client.end();
        }
      }
    });

    it('a cursor reads a portal a few rows at a time (Execute with a row limit)', async () => {
      const client = await connect(set.login);
      try {
        const cursor = client.query(new Cursor('SELECT id FROM orders ORDER BY id LIMIT 25'));
        const batches: number[] = [];
        for (;;) {
          const rows = await cursor.read(10);
          if (rows.length === 0) break;
          batches.push(rows.length);
        }
        await cursor.close();
        expect(batches).toEqual([10, 10, 5]);
      } finally {
        await client.end();
      }
    });

    it('the catalog answers for the visible cubes: information_schema, pg_catalog, SHOW, SET, version()', async () => {
      const client = await connect(set.login);
      try {
        const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`);
        const meta = await server().services.dataApi.meta(...asToken(set.principal));
        expect(tables.rows.map((r) => r.table_name)).toEqual(meta.cubes.map((c) => c.name).sort());
        const columns = await client.query(
          `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 AND column_name = $2`,
          ['orders', 'count'],
        );
        expect(columns.rows).toEqual([{ column_name: 'count', data_type: 'bigint' }]);
        expect((await client.query('SELECT version()')).rows[0].version).toMatch(/^PostgreSQL/);
        expect((await client.query('SELECT current_schema()')).rows[0].current_schema).toBe('public');
        await client.query("SET application_name = 'report tool'");
        expect((await client.query('SHOW application_name')).rows[0].application_name).toBe('report tool');
        await client.query('BEGIN');
        await client.query('COMMIT');
      } finally {
        await client.end();
      }
    });

    it('refusals are ErrorResponses with a SQLSTATE, and the connection goes on', async () => {
      const client = await connect(set.login);
      try {
        expect(await failure(client.query('SELECT nope FROM orders'))).toMatchObject({ code: '42703' });
        expect(await failure(client.query('SELECT * FROM no_such_cube'))).toMatchObject({ code: '42P01' });
        expect(await failure(client.query('DELETE FROM orders'))).toMatchObject({
          code: '0A000',
          message: expect.stringMatching(/^DELETE is not supported/),
        });
        expect(await failure(client.query('SELEC 1'))).toMatchObject({ code: '42601' });
        // The catalog is shared by every session of the same model: it cannot be written or reconfigured.
        const write = 'WITH x AS (UPDATE pg_catalog.pg_description SET description = $1 RETURNING 1) SELECT * FROM x';
        expect(await failure(client.query(write, ['defaced']))).toMatchObject({ code: '25006' });
        expect(await failure(client.query("SELECT set_config('search_path', 'pg_catalog', false)"))).toMatchObject({ code: '0A000' });
        expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      } finally {
        await client.end();
      }
    });

    it('SCRAM with a wrong password fails with 28P01; another deployment credential opens nothing here', async () => {
      expect(await failure(connect({ ...set.login, password: 'wrong' }))).toMatchObject({ code: '28P01' });
      const other = await sqlDeployment(server(), address);
      expect(await failure(connect({ ...other.login, database: set.login.database }))).toMatchObject({ code: '28P01' });
      expect(await failure(connect({ ...set.tokenLogin(other.token) }))).toMatchObject({ code: '28P01' });
      expect(await failure(connect({ ...set.login, database: 'deployment-999999' }))).toMatchObject({ code: '3D000' });
    });

    it('a data API token as the password (user token) reads the deployment it was minted for', async () => {
      const client = await connect(set.tokenLogin(set.token));
      try {
        const result = await client.query('SELECT MEASURE(count) AS n FROM orders');
        expect(String(result.rows[0].n)).toBe(String((await load({ measures: ['orders.count'] }))[0]!['orders.count']));
      } finally {
        await client.end();
      }
    });

    it('CancelRequest ends the running statement with 57014, and the session goes on', async () => {
      const gated = await gateWarehouse([server().services.dataApi], set.account.id, set.deploymentId);
      gated.hold();
      const client = await connect(set.login);
      try {
        const running = failure(client.query('SELECT status, MEASURE(count) FROM orders WHERE status = $1 GROUP BY 1', ['cancel-me']));
        await expect.poll(() => gated.counter.executions).toBeGreaterThan(0);
        const canceller = new pg.Client(set.login);
        (canceller as unknown as { cancel: (c: pg.Client, q: unknown) => void }).cancel(
          client,
          (client as unknown as { activeQuery: unknown }).activeQuery,
        );
        expect(await running).toMatchObject({ code: '57014' });
        gated.release();
        expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      } finally {
        gated.release();
        await client.end();
      }
    });

    it('every session is gone once its client disconnected', async () => {
      const client = await connect(set.login);
      expect(server().services.sqlApi.openSessions).toBeGreaterThan(0);
      await client.end();
      await expect.poll(() => server().services.sqlApi.openSessions).toBe(0);
    });
  },
  dataDirOverride(),
);
