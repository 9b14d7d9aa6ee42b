import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { beforeAll, it } from 'vitest';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { dataDirOverride, mint, sampleDeployment } from '../data-api/test-fixtures.js';
import { databaseOf, TOKEN_USER } from './callers.js';

/** A connection's settings as a BI tool's form takes them. */
export interface SqlLogin {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

/**
 * A deployment serving the sample model and warehouse, the SQL listener on a free port, the
 * production environment's SQL credential (as the environments operation shows it) and a data
 * API token of the deployment.
 */
export async function sqlDeployment(
  server: TestServer,
  address: AddressInfo,
  files?: Record<string, string>,
  variables: Record<string, string> = {},
) {
  const set = await sampleDeployment(server, server.services.dataApi, files);
  const { account, deploymentId } = set;
  if (Object.keys(variables).length > 0) {
    const body = { variables: Object.entries(variables).map(([name, value]) => ({ name, value })) };
    const url = `/api/v1/deployments/${deploymentId}/variables`;
    const saved = await account.request({ method: 'POST', url, as: account.admin, body });
    if (saved.status >= 300) throw new Error(`variables: ${saved.status} ${saved.text}`);
  }
  const listed = await account.request({ method: 'GET', url: `/api/v1/deployments/${deploymentId}/environments`, as: account.admin });
  if (listed.status !== 200) throw new Error(`environments: ${listed.status} ${listed.text}`);
  const production = listed.body.data.find((e: { type: string }) => e.type === 'production');
  const sql = production.api_credentials.find((c: { type: string }) => c.type === 'sql') as SqlLogin & { type: 'sql' };
  const token = await mint(account, deploymentId);
  const base = { host: '127.0.0.1', port: address.port, database: databaseOf(deploymentId) };
  return {
    ...set,
    environment: sql,
    login: { ...base, user: sql.user, password: sql.password } satisfies SqlLogin,
    tokenLogin: (password: string): SqlLogin => ({ ...base, user: TOKEN_USER, password }),
    token,
  };
}

/** A node-postgres client, connected; the caller ends it. */
export async function connect(login: SqlLogin): Promise<pg.Client> {
  const client = new pg.Client({ ...login, connectionTimeoutMillis: 20_000 });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Starts the test server's SQL listener on a free port (closed with the app). */
export function listen(server: TestServer): Promise<AddressInfo> {
  return server.services.sqlApi.listen(server.app, 0);
}

export const PSQL = '/usr/bin/psql';

export type SqlDeployment = Awaited<ReturnType<typeof sqlDeployment>>;

/**
 * describeOnStores for tests that run Debian's psql, each store's server with its SQL listener and
 * the sample deployment (`deployment()`, once `beforeAll` made it). Without psql (CI installs
 * postgresql-client) the tests say so and skip.
 */
export function describeWithPsql(name: string, body: (server: () => TestServer, deployment: () => SqlDeployment) => void): void {
  if (!existsSync(PSQL)) {
    it.skip(`${name}: ${PSQL} is not installed (apt-get install postgresql-client)`);
    return;
  }
  describeOnStores(
    name,
    (server) => {
      let made: SqlDeployment | undefined;
      beforeAll(async () => {
        made = await sqlDeployment(server(), await listen(server()));
      });
      body(server, () => made!);
    },
    dataDirOverride(),
  );
}

/** Runs Debian's psql with the login and its arguments; resolves to its exit code and output. */
export function psql(login: SqlLogin, args: string[], sslmode = 'disable'): Promise<{ code: number; stdout: string; stderr: string }> {
  const conninfo = `host=${login.host} port=${login.port} dbname=${login.database} user=${login.user} sslmode=${sslmode}`;
  return new Promise((resolve) => {
    execFile(
      PSQL,
      ['-X', '-v', 'ON_ERROR_STOP=1', conninfo, ...args],
      { env: { PATH: process.env.PATH!, PGPASSWORD: login.password, PGCONNECT_TIMEOUT: '20' }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
