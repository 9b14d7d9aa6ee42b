import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT } from './test-support/built.js';
import { ownDatabase } from './test-support/database-url.js';
import { freePort, startServerProcess } from './test-support/server-process.js';
import { storeKinds } from './test-support/stores.js';

const CLI = BUILT.cli;

/** `npm start` as a real process on `dataDir`, resolved once its output matches `until` (or it exited). */
function start(dataDir: string, port: number, until: RegExp, databaseUrl?: string) {
  return startServerProcess(
    {
      PORT: String(port),
      PLINTH_DATA_DIR: dataDir,
      PLINTH_JOB_POLL_MS: '100',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    { until },
  );
}

/** A shell line as a newcomer types it, with `plinth` on PATH running this checkout's client. */
function sh(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-e', '-c', script], { env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** An empty store for a spawned server: on PostgreSQL a database of its own, dropped afterwards. */
async function emptyStore(kind: string): Promise<{ url?: string; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { drop: async () => undefined };
  return ownDatabase('plinth_demo');
}

describe.each(storeKinds)('the first start [%s]', (kind) => {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-demo-start-'));
  let store: Awaited<ReturnType<typeof emptyStore>> | undefined;
  afterAll(async () => {
    await store?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'npm start on an empty store builds the demo deployment: deployments list, deployments token 1 and a curl load work at once; deleted, it stays deleted (issue 14, first start)',
    { timeout: 300_000 },
    async () => {
      store = await emptyStore(kind);
      const dataDir = join(dir, '.plinth');
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      const plinth = join(bin, 'plinth');
      writeFileSync(plinth, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
      chmodSync(plinth, 0o755);

      // The first start's last line names where the key was saved; the demo's line comes before it.
      const first = await start(dataDir, port, /Saved to .*\n/, store.url);
      let env: Record<string, string> = {};
      try {
        expect(first.output()).toContain(
          `Demo deployment 1 ("Demo") serves the sample data at ${base}/d/1/cubejs-api/v1 (token: plinth deployments token 1).\n`,
        );
        const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { apiKey: string };
        env = {
          PATH: `${bin}:${process.env.PATH}`,
          HOME: join(dir, 'home'),
          PLINTH_API_URL: base,
          PLINTH_API_KEY: apiKey,
          PLINTH_NO_TELEMETRY: '1',
          PLINTH_NO_UPDATE_CHECK: '1',
        };
        const list = await sh('plinth deployments list', env);
        expect(list.code, list.stderr).toBe(0);
        expect(list.stdout).toMatch(/^1 +Demo /m);

        const query = encodeURIComponent(JSON.stringify({ measures: ['orders.count', 'line_items.count'] }));
        const load = await sh(
          `TOKEN=$(plinth deployments token 1)\ncurl -sf -H "Authorization: $TOKEN" '${base}/d/1/cubejs-api/v1/load?query=${query}'`,
          env,
        );
        expect(load.code, load.stderr).toBe(0);
        // 100,000 line items in 25,000 orders: the size the first start writes (DEMO_LINE_ITEMS).
        expect(JSON.parse(load.stdout).data).toEqual([{ 'orders.count': '25000', 'line_items.count': '100000' }]);

        const deleted = await sh('plinth deployments delete 1', env);
        expect(deleted.code, deleted.stderr).toBe(0);
      } finally {
        first.child.kill('SIGTERM');
        await first.exited;
      }

      const second = await start(dataDir, port, /Plinth is ready at .*\n/, store.url);
      try {
        expect(second.output()).toContain('Plinth is ready at ');
        expect(second.output()).not.toContain('Demo deployment');
        const list = await sh('plinth deployments list --json', env);
        expect(list.code, list.stderr).toBe(0);
        expect(JSON.parse(list.stdout).items).toEqual([]);
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    },
  );
});
