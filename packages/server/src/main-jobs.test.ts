import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore } from './store/store.js';
import { BUILT } from './test-support/built.js';

const MAIN = BUILT.server;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'plinth-jobs-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it(
  'the server starts its job runner once it listens, and on SIGTERM stops it, leaving no job running, before closing the store (issue 11)',
  { timeout: 180_000 },
  async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH!,
        PORT: String(port),
        HOST: '127.0.0.1',
        PLINTH_DATA_DIR: dataDir,
        PLINTH_JOB_POLL_MS: '10',
        PLINTH_DEMO: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // Without the demo (main-demo.test.ts), whose build would be a job of its own.
    // The server's own signal that it is up: the ready line, written after the runner started.
    for (let i = 0; i < 1_200 && !output.includes('Plinth is ready') && child.exitCode === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(output).toContain('Plinth is ready');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('"msg":"background jobs stopped"');

    // The embedded store is free again once the process is gone: read what the runner left.
    const store = await openStore({ kind: 'pglite', dataDir: `${dataDir}/pgdata` });
    try {
      const jobs = await store.db.selectFrom('job').select(['kind', 'state', 'dedupe_key']).orderBy('id').execute();
      expect(jobs.length).toBeGreaterThan(0);
      expect(jobs.every((j) => j.kind === 'retention.sweep' && j.dedupe_key === 'schedule')).toBe(true);
      expect(jobs.filter((j) => j.state === 'running')).toEqual([]);
      // Either the sweep ran (and its next run waits) or the stop gave it back: one run is queued.
      expect(jobs.filter((j) => j.state === 'queued')).toHaveLength(1);
    } finally {
      await store.close();
    }
  },
);
