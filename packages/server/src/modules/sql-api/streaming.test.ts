import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Warehouse } from '@plinth/semantic';
import Cursor from 'pg-cursor';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { dataDirOverride } from '../data-api/test-fixtures.js';
import { connect, listen, sqlDeployment } from './test-fixtures.js';

/**
 * The data API's row limit in these tests (PLINTH_DATA_API_MAX_LIMIT): a statement streams once a
 * load comes back full at it, so a lower limit streams the same way with fewer rows to read.
 */
const MAX_LIMIT = 1_000;
/** Many times the limit, and many of the warehouse's batches (DuckDB's 2,048 rows, PostgreSQL's 1,000). */
const ROWS = 20_000;
/**
 * Wide enough that ROWS rows with their padding (some 24 MB on the wire) outgrow what the sockets
 * buffer between the server and a client that stopped reading, so the server meets backpressure with
 * its warehouse cursor open: the cancel and gone-client cases need that. Fewer, wider rows cost far less to stream.
 */
const PADDING = 1_200;
/** A whole read on a loaded 2-core machine: a bound on a hang, not a measure. */
const WHOLE_READ_MS = 180_000;
const PG_URL = process.env.DATABASE_URL;
const HERE = fileURLToPath(new URL('./clients/', import.meta.url));
const hasPsql = existsSync('/usr/bin/psql');
const hasPsycopg2 = existsSync('/usr/lib/python3/dist-packages/psycopg2');

/** A cube of ROWS generated rows, each padded so that the whole result outgrows the sockets' buffers. */
const numbersModel = (from: string) => ({
  'model/numbers.yml': `cubes:
  - name: numbers
    sql: ${from}
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
        public: true
      - name: padding
        sql: padding
        type: string
    measures:
      - name: count
        type: count
`,
});

const SOURCES = [
  { source: 'DuckDB', from: `SELECT range AS id, repeat('x', ${PADDING}) AS padding FROM range(${ROWS})`, variables: {} },
  ...(PG_URL
    ? [
        {
          source: 'PostgreSQL',
          from: `SELECT g AS id, repeat('x', ${PADDING}) AS padding FROM generate_series(0, ${ROWS - 1}) g`,
          variables: pgVariables(PG_URL),
        },
      ]
    : []),
];

function pgVariables(url: string): Record<string, string> {
  const parsed = new URL(url);
  return {
    CUBEJS_DB_TYPE: 'postgres',
    CUBEJS_DB_HOST: parsed.hostname,
    CUBEJS_DB_PORT: parsed.port || '5432',
    CUBEJS_DB_NAME: parsed.pathname.slice(1),
    CUBEJS_DB_USER: decodeURIComponent(parsed.username),
    ...(parsed.password ? { CUBEJS_DB_PASS: decodeURIComponent(parsed.password) } : {}),
  };
}

function run(file: string, args: string[], env?: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 120_000, maxBuffer: 64 * 1024 * 1024, ...(env ? { env } : {}) }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ code: 'none' }),
    (error: { code?: string }) => ({ code: error.code }),
  );

/** The socket a node-postgres client reads from: paused, the server meets backpressure. */
const socketOf = (client: pg.Client) => (client as unknown as { connection: { stream: import('node:net').Socket } }).connection.stream;

/** Counts the batches the deployment's warehouse streams, however the statement reads them. */
async function countBatches(server: TestServer, accountId: number, deploymentId: number) {
  const config = await server.services.deploymentVariables.warehouseConfig(accountId, deploymentId);
  const warehouse = (await server.services.dataApi.warehouses.get(accountId, deploymentId, config)) as Warehouse;
  const original = warehouse.stream!.bind(warehouse);
  const counter = { batches: 0 };
  warehouse.stream = async function* (...args: Parameters<typeof original>) {
    for await (const batch of original(...args)) {
      counter.batches += 1;
      yield batch;
    }
  };
  return { counter, restore: () => void (warehouse.stream = original) };
}

describeOnStores(
  'SQL API: large results stream from the warehouse to the wire',
  (server) => {
    let address: AddressInfo;
    let monitor: pg.Client | undefined;
    beforeAll(async () => {
      address = await listen(server());
      if (PG_URL) {
        monitor = new pg.Client({ connectionString: PG_URL });
        await monitor.connect();
      }
    });
    afterAll(async () => {
      await monitor?.end();
    });

    /** PostgreSQL backends holding a stream's cursor open (fetching, or in their transaction between FETCHes). */
    const openCursors = async () =>
      Number(
        (
          await monitor!.query(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE state <> 'idle' AND query LIKE 'FETCH % FROM plinth_stream'`,
          )
        ).rows[0].n,
      );

    describe.each(SOURCES)('from $source', ({ source, from, variables }) => {
      let set: Awaited<ReturnType<typeof sqlDeployment>>;
      beforeAll(async () => {
        set = await sqlDeployment(server(), address, numbersModel(from), variables);
      });

      it(
        'a simple query without LIMIT answers every row, past the data API row limit',
        async () => {
          const client = await connect(set.login);
          try {
            const result = await client.query('SELECT id FROM numbers ORDER BY id');
            expect(result.rows).toHaveLength(ROWS);
            expect(result.rows.slice(0, 2).map((r) => Number(r.id))).toEqual([0, 1]);
            expect(Number(result.rows[ROWS - 1].id)).toBe(ROWS - 1);
            expect(result.rows.every((r, i) => Number(r.id) === i)).toBe(true);
            // A LIMIT past the data API's limit (MAX_LIMIT) streams too, and stops at its LIMIT.
            const limited = (ROWS * 3) / 5;
            expect((await client.query(`SELECT id FROM numbers ORDER BY id LIMIT ${limited}`)).rows).toHaveLength(limited);
          } finally {
            await client.end();
          }
        },
        WHOLE_READ_MS,
      );

      it(
        'an extended query with a parameter streams its rows',
        async () => {
          const client = await connect(set.login);
          try {
            const result = await client.query({ text: 'SELECT id FROM numbers WHERE id >= $1 ORDER BY id', values: [ROWS / 2] });
            expect(result.rows).toHaveLength(ROWS / 2);
            expect(Number(result.rows[0].id)).toBe(ROWS / 2);
            expect(Number(result.rows[ROWS / 2 - 1].id)).toBe(ROWS - 1);
          } finally {
            await client.end();
          }
        },
        WHOLE_READ_MS,
      );

      it.skipIf(!hasPsql)(
        'COPY (query) TO STDOUT streams every row',
        async () => {
          const { login } = set;
          const conninfo = `host=${login.host} port=${login.port} dbname=${login.database} user=${login.user} sslmode=disable`;
          const copied = await run(
            '/usr/bin/psql',
            ['-X', '-v', 'ON_ERROR_STOP=1', conninfo, '-c', 'COPY (SELECT id FROM numbers ORDER BY id) TO STDOUT'],
            {
              PATH: process.env.PATH!,
              PGPASSWORD: login.password,
            },
          );
          expect(copied.stderr).toBe('');
          const lines = copied.stdout.trimEnd().split('\n');
          expect(lines).toHaveLength(ROWS);
          expect([lines[0], lines[ROWS - 1]]).toEqual(['0', String(ROWS - 1)]);
        },
        WHOLE_READ_MS,
      );

      it(
        'DECLARE, FETCH, MOVE and CLOSE read a cursor forward as PostgreSQL does',
        async () => {
          const client = await connect(set.login);
          try {
            expect(await failure(client.query('DECLARE c CURSOR FOR SELECT id FROM numbers'))).toEqual({ code: '25P01' });
            await client.query('BEGIN');
            await client.query('DECLARE c CURSOR FOR SELECT id FROM numbers ORDER BY id');
            const first = await client.query('FETCH 1000 FROM c');
            expect(first.rows.map((r) => Number(r.id))).toEqual(Array.from({ length: 1000 }, (_, i) => i));
            expect(first.command).toBe('FETCH');
            const moved = await client.query('MOVE FORWARD 1000 IN c');
            expect([moved.command, moved.rowCount]).toEqual(['MOVE', 1000]);
            expect((await client.query('FETCH NEXT FROM c')).rows.map((r) => Number(r.id))).toEqual([2000]);
            expect((await client.query('FETCH FORWARD ALL FROM c')).rows).toHaveLength(ROWS - 2001);
            expect((await client.query('FETCH c')).rowCount).toBe(0);
            expect(await failure(client.query('FETCH BACKWARD 1 FROM c'))).toEqual({ code: '55000' });
            await client.query('ROLLBACK');
            await client.query('BEGIN');
            await client.query('DECLARE "Kept" CURSOR WITH HOLD FOR SELECT id FROM numbers ORDER BY id');
            await client.query('DECLARE gone CURSOR FOR SELECT id FROM numbers');
            expect(await failure(client.query('DECLARE s SCROLL CURSOR FOR SELECT id FROM numbers'))).toEqual({ code: '0A000' });
            await client.query('ROLLBACK');
            expect(await failure(client.query('FETCH 1 FROM gone'))).toEqual({ code: '34000' });
            expect(await failure(client.query('FETCH 1 FROM "Kept"'))).toEqual({ code: '34000' });
            await client.query('DECLARE held CURSOR WITH HOLD FOR SELECT id FROM numbers ORDER BY id');
            expect((await client.query('FETCH 2 FROM held')).rows.map((r) => Number(r.id))).toEqual([0, 1]);
            expect((await client.query('CLOSE ALL')).command).toBe('CLOSE');
            expect(await failure(client.query('CLOSE held'))).toEqual({ code: '34000' });
          } finally {
            await client.end();
          }
        },
        WHOLE_READ_MS,
      );

      it('pg-cursor reads a portal in row-limited Executes while the warehouse holds the rest', async () => {
        const batches = await countBatches(server(), set.account.id, set.deploymentId);
        const client = await connect(set.login);
        try {
          const cursor = client.query(new Cursor('SELECT id, padding FROM numbers ORDER BY id'));
          const read = (n: number) =>
            new Promise<Array<{ id: unknown }>>((resolve, reject) => cursor.read(n, (e, rows) => (e ? reject(e) : resolve(rows))));
          expect((await read(100)).map((r) => Number(r.id))).toEqual(Array.from({ length: 100 }, (_, i) => i));
          expect((await read(100)).map((r) => Number(r.id))).toEqual(Array.from({ length: 100 }, (_, i) => i + 100));
          // Rows reached the client with the warehouse's result still open and mostly unread.
          expect(batches.counter.batches).toBeGreaterThan(0);
          expect(batches.counter.batches).toBeLessThanOrEqual(2);
          if (source === 'PostgreSQL') expect(await openCursors()).toBeGreaterThan(0);
          await new Promise<void>((resolve, reject) => cursor.close((e) => (e ? reject(e) : resolve())));
          if (source === 'PostgreSQL') await expect.poll(openCursors).toBe(0);
          expect((await client.query('SELECT MEASURE(count) AS n FROM numbers')).rows).toEqual([{ n: String(ROWS) }]);
        } finally {
          batches.restore();
          await client.end();
        }
      });

      it.skipIf(!hasPsycopg2)(
        'a psycopg2 named cursor (DECLARE and FETCH in its transaction) reads every row',
        async () => {
          const { login } = set;
          const query = 'SELECT id FROM numbers ORDER BY id';
          const result = await run('/usr/bin/python3', [
            `${HERE}psycopg2_named_cursor.py`,
            login.host,
            String(login.port),
            login.database,
            login.user,
            login.password,
            query,
          ]);
          expect(result.stderr).toBe('');
          expect(JSON.parse(result.stdout)).toEqual({ count: ROWS, sum: (ROWS * (ROWS - 1)) / 2, first: 0, last: ROWS - 1 });
        },
        WHOLE_READ_MS,
      );

      it('CancelRequest stops a stream mid-way and releases the warehouse cursor; the session goes on', async () => {
        const batches = await countBatches(server(), set.account.id, set.deploymentId);
        const client = await connect(set.login);
        try {
          let rows = 0;
          const socket = socketOf(client);
          const query = new pg.Query('SELECT id, padding FROM numbers ORDER BY id');
          const firstRow = new Promise<void>((resolve) =>
            query.on('row', () => {
              rows += 1;
              if (rows === 1) {
                socket.pause();
                resolve();
              }
            }),
          );
          const ended = failure(new Promise((resolve, reject) => query.on('end', resolve).on('error', reject)));
          void client.query(query);
          await firstRow;
          // With the client not reading, the server waits on the socket, its stream open and unfinished.
          const streamed = Math.ceil(ROWS / (source === 'DuckDB' ? 2048 : 1000));
          expect(batches.counter.batches).toBeLessThan(streamed);
          if (source === 'PostgreSQL') expect(await openCursors()).toBeGreaterThan(0);
          const canceller = new pg.Client(set.login);
          (canceller as unknown as { cancel: (c: pg.Client, q: unknown) => void }).cancel(client, query);
          socket.resume();
          expect(await ended).toEqual({ code: '57014' });
          expect(rows).toBeLessThan(ROWS);
          if (source === 'PostgreSQL') await expect.poll(openCursors).toBe(0);
          expect((await client.query('SELECT id FROM numbers ORDER BY id LIMIT 2')).rows.map((r) => Number(r.id))).toEqual([0, 1]);
        } finally {
          batches.restore();
          await client.end();
        }
      });

      it('a client gone mid-stream releases the warehouse cursor, and the next connection is answered', async () => {
        const before = server().services.sqlApi.openSessions;
        const client = await connect(set.login);
        const socket = socketOf(client);
        const query = new pg.Query('SELECT id, padding FROM numbers ORDER BY id');
        const firstRow = new Promise<void>((resolve) => query.once('row', () => resolve()));
        query.on('error', () => undefined);
        void client.query(query);
        await firstRow;
        socket.pause();
        if (source === 'PostgreSQL') expect(await openCursors()).toBeGreaterThan(0);
        socket.destroy();
        await expect.poll(() => server().services.sqlApi.openSessions).toBe(before);
        if (source === 'PostgreSQL') await expect.poll(openCursors).toBe(0);
        const next = await connect(set.login);
        try {
          expect((await next.query('SELECT MEASURE(count) AS n FROM numbers')).rows).toEqual([{ n: String(ROWS) }]);
        } finally {
          await next.end();
        }
      });
    });
  },
  { ...dataDirOverride(), PLINTH_DATA_API_MAX_LIMIT: String(MAX_LIMIT) },
);
