import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from './store/store.js';
import { ownDatabase } from './test-support/database-url.js';
import { READY_LINE, startServerProcess, type ServerProcess } from './test-support/server-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'plinth-jobs-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it(
  'the server starts its job runner once it listens, and on SIGTERM stops it, leaving no job running, before closing the store (issue 11)',
  { timeout: 180_000 },
  async () => {
    // Without the demo (main-demo.test.ts), whose build would be a job of its own. The server's
    // own signal that it is up is the ready line, written after the runner started.
    const server = await startServerProcess({ PLINTH_DATA_DIR: dataDir, PLINTH_JOB_POLL_MS: '10', PLINTH_DEMO: '0' });
    const { child, exited, output } = server;
    expect(output()).toContain('Plinth is ready');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toContain('"msg":"background jobs stopped"');

    // The embedded store is free again once the process is gone: read what the runner left.
    const store = await openStore({ kind: 'pglite', dataDir: `${dataDir}/pgdata` });
    try {
      const jobs = await store.db.selectFrom('job').select(['kind', 'state']).orderBy('id').execute();
      expect(jobs.filter((j) => j.state === 'running')).toEqual([]);
      // The hourly sweep was recorded at the start, due on the hour (not at once: a cron schedule).
      const schedule = await store.db.selectFrom('job_schedule').selectAll().where('name', '=', 'retention.sweep').executeTakeFirst();
      expect(schedule).toMatchObject({ cron: '0 * * * *', timezone: 'UTC' });
      expect(new Date(schedule!.next_run_at).getTime() % 3600_000).toBe(0);
    } finally {
      await store.close();
    }
  },
);

describe.skipIf(!process.env.DATABASE_URL)('plinth-server worker [postgres]', () => {
  const started: ServerProcess[] = [];
  afterAll(async () => {
    for (const { child } of started) child.kill('SIGTERM');
    await Promise.all(started.map((s) => s.exited));
  });

  it(
    'runs the build a serving process queued, listening on no port; stops on SIGTERM; an unknown queue is refused naming it',
    { timeout: 180_000 },
    async () => {
      const database = await ownDatabase('plinth_worker');
      const env = { DATABASE_URL: database.url, PLINTH_JOB_POLL_MS: '50', PLINTH_DATA_DIR: dataDir };
      try {
        const refused = await startServerProcess(env, { args: ['worker', '--queues', 'builds,nope'] });
        expect(await refused.exited).toBe(2);
        expect(refused.output()).toContain('plinth-server: --queues: "nope" is not a queue; the queues are builds, rollups');

        // The worker first (it migrates the empty database), then a server that runs no builds:
        // the first start's demo build, which the server waits for, can only be built by the worker.
        const worker = await startServerProcess(env, { args: ['worker', '--queues', 'builds'], until: /Plinth worker \S+ is ready/ });
        started.push(worker);
        expect(worker.output()).toContain('is ready (queues: builds).');
        const server = await startServerProcess(env, { args: ['--queues', 'maintenance'], until: /Plinth is ready at [^\n]*\n[^\n]*\n/ });
        started.push(server);
        expect(server.output()).toContain(READY_LINE);
        // The line after the ready line names the demo only once its build was built.
        expect(server.output()).toMatch(/Demo deployment \d+ \("Demo"\) serves/);

        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          const { rows } = await client.query<{ state: string; claimed_by: string }>(
            `select state, claimed_by from job where kind = 'data-model.build'`,
          );
          expect(rows.length).toBeGreaterThan(0);
          for (const row of rows) expect(row).toEqual({ state: 'succeeded', claimed_by: expect.stringContaining(`:${worker.child.pid}:`) });
        } finally {
          await client.end();
        }
        // Nothing answers on the port the worker was given: it serves no HTTP.
        await expect(fetch(`http://127.0.0.1:${worker.port}/healthz`)).rejects.toThrow();

        worker.child.kill('SIGTERM');
        expect(await worker.exited).toBe(0);
        expect(worker.output()).toContain('"msg":"background jobs stopped"');
      } finally {
        for (const { child } of started.splice(0)) child.kill('SIGTERM');
        await database.drop();
      }
    },
  );
});
