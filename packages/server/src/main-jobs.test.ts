import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore } from './store/store.js';
import { startServerProcess } from './test-support/server-process.js';

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
