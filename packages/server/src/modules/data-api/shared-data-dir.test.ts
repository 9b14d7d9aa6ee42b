import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdDuckDBFile } from '../../../../semantic/src/test-support/duckdb-holder.js';
import { ownDatabase } from '../../test-support/database-url.js';
import { serverProcesses, type ServerProcess } from '../../test-support/server-process.js';

const DATABASE_URL = process.env.DATABASE_URL;
const API_KEY = `sk-${randomBytes(16).toString('hex')}`;
const QUERY = { measures: ['orders.count'] };

/**
 * Two servers on one PostgreSQL store and one data directory (the data dir lock is the embedded
 * store's alone): both serve the embedded DuckDB files under it, which the first start's demo wrote.
 */
describe.skipIf(!DATABASE_URL)('two plinth-server processes sharing a data directory', { timeout: 240_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-shared-dir-'));
  const servers = serverProcesses();
  let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
  let a: ServerProcess;
  let b: ServerProcess;
  let demoId = 0;
  let token = '';

  const load = async (server: ServerProcess) => {
    const url = `${server.url}/d/${demoId}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(QUERY))}`;
    const response = await fetch(url, { headers: { authorization: token } });
    return { status: response.status, text: await response.text() };
  };

  beforeAll(async () => {
    database = await ownDatabase('plinth_shared_dir');
    const env = {
      DATABASE_URL: database.url,
      PLINTH_DATA_DIR: dataDir,
      PLINTH_BOOTSTRAP_API_KEY: API_KEY,
      PLINTH_JOB_POLL_MS: '100',
      PLINTH_LOG_LEVEL: 'warn',
    };
    // The first start writes the demo's data into its embedded DuckDB and builds it; its line follows the ready line.
    a = await servers.start(
      { ...env, PLINTH_DEMO: '1' },
      { until: /Demo deployment \d+ |the demo deployment (is not built|could not be created)/ },
    );
    demoId = Number(/Demo deployment (\d+)/.exec(a.output())?.[1]);
    expect(demoId, a.output()).toBeGreaterThan(0);
    b = await servers.start({ ...env, PLINTH_DEMO: '1' });
    const minted = await fetch(`${a.url}/api/v1/deployments/${demoId}/token`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${API_KEY}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(minted.status).toBe(200);
    token = ((await minted.json()) as { cubeApiToken: string }).cubeApiToken;
  });
  afterAll(async () => {
    await servers.stopAll();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a warehouse file another process holds read-write: a 400 naming neither the data directory nor a pid, logged in full', async () => {
    const holder = await holdDuckDBFile(join(dataDir, 'warehouses', `${demoId}.duckdb`));
    let refused: { status: number; text: string };
    try {
      refused = await load(b);
    } finally {
      await holder.release();
    }
    expect(refused.status, refused.text).toBe(400);
    expect(JSON.parse(refused.text)).toEqual({
      error: `The warehouse of deployment ${demoId} is busy or cannot be opened; try again`,
    });
    for (const hidden of [dataDir, String(holder.pid), 'PID', '.duckdb']) expect(refused.text).not.toContain(hidden);
    // The operator reads the whole of it in the server's log.
    expect(b.output()).toContain(`PID ${holder.pid}`);
    expect(b.output()).toContain(join(dataDir, 'warehouses', `${demoId}.duckdb`));
  });

  it('both answer the same load with 200, together, and neither holds the file against the other', async () => {
    const answers = await Promise.all([load(a), load(b), load(a), load(b)]);
    expect(answers.map(({ status }) => status)).toEqual([200, 200, 200, 200]);
    const data = answers.map(({ text }) => JSON.parse(text).data);
    expect(data[0]).toEqual([{ 'orders.count': expect.stringMatching(/^[1-9]\d*$/) }]);
    for (const each of data) expect(each).toEqual(data[0]);
  });
});
