import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { asToken, dataDirOverride } from '../data-api/test-fixtures.js';
import { listen, sqlDeployment } from './test-fixtures.js';

const HERE = fileURLToPath(new URL('./clients/', import.meta.url));
const PYTHON = '/usr/bin/python3';
const JDBC_JAR = '/usr/share/java/postgresql.jar';
const hasPsycopg2 = existsSync('/usr/lib/python3/dist-packages/psycopg2');
const hasJdbc = existsSync(JDBC_JAR) && existsSync('/usr/bin/javac');

function run(file: string, args: string[], cwd?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 120_000, ...(cwd ? { cwd } : {}) }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The driver's client program compiled once per run, in a directory of its own. */
let compiled: Promise<string> | undefined;
function jdbcClient(): Promise<string> {
  return (compiled ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plinth-jdbc-'));
    const javac = await run('/usr/bin/javac', ['-d', dir, join(HERE, 'JdbcClient.java')]);
    if (javac.code !== 0) throw new Error(`javac: ${javac.stderr}`);
    return dir;
  })());
}

describeOnStores(
  'SQL API with psycopg2 and the PostgreSQL JDBC driver',
  (server) => {
    let set: Awaited<ReturnType<typeof sqlDeployment>>;
    let address: AddressInfo;
    let expected: { count: string; tables: string[] };
    beforeAll(async () => {
      address = await listen(server());
      set = await sqlDeployment(server(), address);
      const answer = (await server().services.dataApi.load(...asToken(set.principal), {
        measures: ['orders.count'],
        filters: [{ member: 'orders.status', operator: 'equals', values: ['completed'] }],
      })) as { data: Array<Record<string, unknown>> };
      const meta = await server().services.dataApi.meta(...asToken(set.principal));
      expected = { count: String(answer.data[0]!['orders.count']), tables: meta.cubes.map((c) => c.name).sort() };
    });

    // Debian's python3-psycopg2 and libpostgresql-jdbc-java (CI installs both): without them locally these say so and skip.
    describe.skipIf(!hasPsycopg2)(`psycopg2${hasPsycopg2 ? '' : ' (skipped: python3-psycopg2 is not installed)'}`, () => {
      it('queries with a parameter, browses information_schema, and reads a SQLSTATE', async () => {
        const { login } = set;
        const result = await run(PYTHON, [
          join(HERE, 'psycopg2_client.py'),
          login.host,
          String(login.port),
          login.database,
          login.user,
          login.password,
        ]);
        expect(result.stderr).toBe('');
        const out = JSON.parse(result.stdout) as { columns: string[]; rows: string[][]; tables: string[]; ids: string[]; error: string };
        expect(out).toMatchObject({
          columns: ['status', 'n'],
          rows: [['completed', expected.count]],
          tables: expected.tables,
          error: '42703',
        });
        expect(out.ids).toHaveLength(3);
      });
    });

    describe.skipIf(!hasJdbc)(`JDBC${hasJdbc ? '' : ' (skipped: libpostgresql-jdbc-java or javac is not installed)'}`, () => {
      it('browses DatabaseMetaData and runs a prepared statement past the binary threshold', async () => {
        const dir = await jdbcClient();
        const { login } = set;
        const url = `jdbc:postgresql://${login.host}:${login.port}/${login.database}`;
        for (const [user, password] of [
          [login.user, login.password],
          ['token', set.token],
        ]) {
          const result = await run('/usr/bin/java', ['-cp', `${dir}:${JDBC_JAR}`, 'JdbcClient', url, user!, password!]);
          expect(result.stderr).toBe('');
          const lines = result.stdout.trim().split('\n');
          expect(lines).toContain(`tables ${expected.tables.join(',')}`);
          expect(lines).toContain('schema public');
          expect(lines.find((l) => l.startsWith('columns '))).toMatch(/count:int8/);
          expect(lines.filter((l) => l.startsWith('row '))).toEqual(
            Array.from({ length: 7 }, (_, i) => `row ${i} completed ${expected.count}`),
          );
          expect(lines).toContain('error 42703');
        }
      });
    });
  },
  dataDirOverride(),
);
