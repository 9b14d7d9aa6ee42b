import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { connect as tcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { dataDirOverride } from '../data-api/test-fixtures.js';
import { connect, listen, psql, sqlDeployment } from './test-fixtures.js';

/** A self-signed certificate for 127.0.0.1, made with the machine's openssl. */
function selfSigned(): { PLINTH_SQL_TLS_CERT: string; PLINTH_SQL_TLS_KEY: string } {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-sql-tls-'));
  const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1'],
    {
      stdio: 'ignore',
    },
  );
  return { PLINTH_SQL_TLS_CERT: cert, PLINTH_SQL_TLS_KEY: key };
}

/** Sends raw bytes and waits for the server to answer or close. */
function raw(port: number, bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve) => {
    const socket = tcp(port, '127.0.0.1', () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => resolve(Buffer.concat(chunks)));
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

const startup = (params: Record<string, string>) => {
  const body = Buffer.concat([
    Buffer.from([0, 3, 0, 0]),
    ...Object.entries(params).map(([k, v]) => Buffer.from(`${k}\0${v}\0`)),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(4);
  head.writeInt32BE(body.length + 4);
  return Buffer.concat([head, body]);
};

describeOnStores(
  'SQL API: TLS, and input that must not end the listener',
  (server) => {
    let address: AddressInfo;
    let set: Awaited<ReturnType<typeof sqlDeployment>>;
    beforeAll(async () => {
      address = await listen(server());
      set = await sqlDeployment(server(), address);
    });

    it('with TLS offered, psql connects with sslmode=require over TLS and with sslmode=disable in the clear', async () => {
      const query = ['-A', '-t', '-c', 'SELECT MEASURE(count) FROM orders', '-c', '\\conninfo'];
      const secure = await psql(set.login, query, 'require');
      expect(secure.stderr).toBe('');
      expect(secure.stdout).toMatch(/SSL connection \(protocol: TLS/);
      const clear = await psql(set.login, query, 'disable');
      expect(clear.stderr).toBe('');
      expect(clear.stdout).not.toMatch(/SSL connection/);
      expect(clear.stdout.split('\n')[0]).toBe(secure.stdout.split('\n')[0]);
    });

    it('with TLS required, a connection without it is refused and a token travels only over it', async () => {
      const ssl = { rejectUnauthorized: false };
      server().config.sql.tlsRequired = true;
      const plain = await connect(set.tokenLogin(set.token))
        .then(
          () => 'connected',
          (error: { code?: string }) => error.code,
        )
        .finally(() => (server().config.sql.tlsRequired = false));
      expect(plain).toBe('08P01');
      const client = new pg.Client({ ...set.tokenLogin(set.token), ssl });
      await client.connect();
      try {
        expect((await client.query('SELECT MEASURE(count) AS n FROM orders')).rows).toBeDefined();
        expect((await client.query('SHOW ssl')).rows).toHaveLength(1);
      } finally {
        await client.end();
      }
    });

    it('garbage, truncated messages and unknown requests close their own connection only', async () => {
      const inputs = [
        Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'),
        Buffer.from([0, 0, 0, 8, 0, 0, 0, 0]),
        Buffer.from([0, 0, 0, 4]),
        startup({ user: 'token', database: 'no-such-database' }),
        startup({ database: 'deployment-1' }),
        Buffer.concat([startup({ user: 'token', database: set.login.database }), Buffer.from('p\0\0\0\x08abc')]),
        Buffer.alloc(70_000, 0x51),
      ];
      for (const input of inputs) await raw(address.port, input);
      const client = new pg.Client({ ...set.tokenLogin(set.token), ssl: { rejectUnauthorized: false } });
      await client.connect();
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await client.end();
    });

    // The catalog runs on the server's thread and is shared: a statement that would hold it is refused before it runs.
    it.each([
      ['a count over a hundred million generated rows', 'SELECT count(*) FROM generate_series(1, 100000000)', '54000', /too costly/],
      ['a generated set of a million rows and more', 'SELECT * FROM generate_series(1, 2000000)', '54000', /too many rows/],
      [
        'a recursive CTE',
        'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t',
        '54000',
        /WITH RECURSIVE/,
      ],
      ['pg_sleep', 'SELECT pg_sleep(600)', '42501', /permission denied for function pg_sleep/],
    ])('a catalog statement that would stall every session is refused: %s', async (_name, sql, code, message) => {
      const client = new pg.Client({ ...set.tokenLogin(set.token), ssl: { rejectUnauthorized: false } });
      await client.connect();
      try {
        const error = (await client.query(sql).catch((e: unknown) => e)) as { code?: string; message?: string };
        expect(error.code).toBe(code);
        expect(error.message).toMatch(message);
        expect((await client.query('SELECT count(*)::int AS n FROM generate_series(1, 1000)')).rows).toEqual([{ n: 1000 }]);
      } finally {
        await client.end();
      }
    });
  },
  { ...dataDirOverride(), ...selfSigned() },
);
