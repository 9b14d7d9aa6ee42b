import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect, it } from 'vitest';
import { freePort, ownDatabase, READY_LINE, startServerProcess, type ServerProcess } from '../../test-support/index.js';
import { PROVISION_MISSING_JOB } from './provision-job.js';

it('plinth-server listens for PostgreSQL clients on PLINTH_SQL_PORT and says where in its start line', async () => {
  const sqlPort = await freePort();
  const server = await startServerProcess({
    PLINTH_DATA_DIR: mkdtempSync(join(tmpdir(), 'plinth-sql-main-')),
    PLINTH_SQL_PORT: String(sqlPort),
    PLINTH_DEMO: '0',
  });
  try {
    expect(server.output()).toContain(
      `Plinth is ready at http://127.0.0.1:${server.port} (account "demo"). SQL API (PostgreSQL wire) at 127.0.0.1:${sqlPort}.\n`,
    );
    const client = new pg.Client({ host: '127.0.0.1', port: sqlPort, database: 'deployment-424242', user: 'token', password: 'x' });
    const refused = await client.connect().then(
      () => 'connected',
      (error: { code?: string }) => error.code,
    );
    expect(refused).toBe('3D000');
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});

it.skipIf(!process.env.DATABASE_URL)(
  'an environment made before SQL users came with it gets one from the job the server queues once ready, not before [postgres]',
  { timeout: 180_000 },
  async () => {
    const database = await ownDatabase('plinth_sql_start');
    const dataDir = mkdtempSync(join(tmpdir(), 'plinth-sql-start-'));
    const env = { DATABASE_URL: database.url, PLINTH_DATA_DIR: dataDir, PLINTH_DEMO: '0' };
    const started: ServerProcess[] = [];
    const client = new pg.Client({ connectionString: database.url });
    try {
      // A server that runs no job gets ready all the same, the provisioning queued for whoever runs maintenance.
      // The key's line comes after the ready line, in a write of its own: wait for it, not for the ready line.
      const server = await startServerProcess(
        { ...env, PLINTH_SQL_PORT: String(await freePort()) },
        { args: ['--queues', 'none'], until: /Admin API key \(shown once\): sk-\w+\n/ },
      );
      expect(server.output()).toContain(READY_LINE);
      started.push(server);
      const apiKey = /Admin API key \(shown once\): (sk-\w+)/.exec(server.output())?.[1];
      expect(apiKey, server.output()).toBeDefined();
      const call = (method: string, path: string) =>
        fetch(`${server.url}${path}`, {
          method,
          headers: { authorization: `Api-Key ${apiKey}`, 'content-type': 'application/json' },
          body: method === 'POST' ? JSON.stringify({ name: 'old' }) : undefined,
        });
      const created = await call('POST', '/api/v1/deployments');
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      expect((await call('GET', `/api/v1/deployments/${id}/environments`)).status).toBe(200);

      await client.connect();
      // Its environment as one made before SQL users came with environments.
      await client.query('DELETE FROM sql_api_credential WHERE deployment_id = $1', [id]);
      const job = async () => (await client.query('SELECT state, result FROM job WHERE kind = $1', [PROVISION_MISSING_JOB])).rows;
      expect(await job()).toEqual([{ state: 'queued', result: null }]);

      // A worker running the maintenance queue makes the missing SQL user, and the server shows it.
      const worker = await startServerProcess(
        { ...env, PLINTH_JOB_POLL_MS: '50' },
        { args: ['worker', '--queues', 'maintenance'], until: /Plinth worker \S+ is ready/ },
      );
      started.push(worker);
      await expect.poll(job, { timeout: 60_000 }).toEqual([{ state: 'succeeded', result: { environments: 1 } }]);
      const listed = (await (await call('GET', `/api/v1/deployments/${id}/environments`)).json()) as {
        data: Array<{ id: string; api_credentials: Array<{ type: string; user?: string }> }>;
      };
      expect(listed.data.map((e) => e.api_credentials.find((c) => c.type === 'sql')?.user)).toEqual(listed.data.map((e) => `env_${e.id}`));
    } finally {
      for (const { child } of started) child.kill('SIGTERM');
      await Promise.all(started.map((s) => s.exited));
      await client.end().catch(() => undefined);
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
