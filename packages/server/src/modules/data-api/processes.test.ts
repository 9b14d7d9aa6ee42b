import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBWarehouse } from '@plinth/semantic';
import { afterAll, describe, expect, it } from 'vitest';
import { ownDatabase } from '../../test-support/database-url.js';
import { serverProcesses } from '../../test-support/server-process.js';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.PLINTH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const API_KEY = `sk-${randomBytes(16).toString('hex')}`;

/**
 * Reads a table that exists only in process A's embedded DuckDB, crossed with enough rows to be
 * genuinely slow: process B running it would fail, so B's rows can only come from Redis.
 */
const SLOW_CUBE = `cubes:
  - name: slow
    sql: "SELECT a.id FROM only_on_a a CROSS JOIN range(40000) b"
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
    measures:
      - name: total
        sql: id
        type: sum
`;

async function call(base: string, method: string, path: string, authorization: string, body?: unknown) {
  const response = await fetch(base + path, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status !== 200 && response.status !== 201) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

// Two real processes on one PostgreSQL store and one Redis; the embedded store cannot be shared, so this needs DATABASE_URL.
describe.skipIf(!DATABASE_URL)('two plinth-server processes sharing Redis (issue 14)', { timeout: 240_000 }, () => {
  const servers = serverProcesses();
  let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
  afterAll(async () => {
    await servers.stopAll();
    await database?.drop();
  });

  it('a Continue wait on process A is answered on process B from Redis, without running the query there', async () => {
    database = await ownDatabase('plinth_redis');
    const env = {
      DATABASE_URL: database.url,
      PLINTH_BOOTSTRAP_API_KEY: API_KEY,
      PLINTH_REDIS_URL: REDIS_URL,
      PLINTH_REDIS_NAMESPACE: `test-${database.name}`,
      PLINTH_CONTINUE_WAIT_MS: '30',
      PLINTH_JOB_POLL_MS: '100',
      PLINTH_DEMO: '0',
      PLINTH_LOG_LEVEL: 'warn',
    };
    const dirA = mkdtempSync(join(tmpdir(), 'plinth-proc-a-'));
    const a = await servers.start({ ...env, PLINTH_DATA_DIR: dirA });
    const b = await servers.start({ ...env, PLINTH_DATA_DIR: mkdtempSync(join(tmpdir(), 'plinth-proc-b-')) });
    const key = `Api-Key ${API_KEY}`;

    const { id } = await call(a.url, 'POST', '/api/v1/deployments', key, { name: 'Slow' });
    // Written before A first opens the deployment's embedded warehouse; B's data dir has no such table.
    mkdirSync(join(dirA, 'warehouses'), { recursive: true });
    const seed = await DuckDBWarehouse.open({ path: join(dirA, 'warehouses', `${id}.duckdb`) });
    await seed.exec('CREATE TABLE only_on_a AS SELECT range AS id FROM range(10000)');
    await seed.close();

    const sha = createHash('sha256').update(SLOW_CUBE).digest('hex');
    const uploads = `/build/api/v1/deployments/${id}/uploads`;
    const session = await call(a.url, 'POST', uploads, key, { files: { 'model/slow.yml': sha } });
    await call(a.url, 'PUT', `${uploads}/${session.uploadId}/files`, key, { path: 'model/slow.yml', content: SLOW_CUBE });
    await call(a.url, 'POST', `${uploads}/${session.uploadId}/finish`, key);
    let status = '';
    for (let i = 0; i < 600 && status !== 'built'; i += 1) {
      status = (await call(a.url, 'GET', `/api/v1/deployments/${id}/build-status`, key)).status;
      expect(['building', 'built']).toContain(status);
      if (status !== 'built') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { cubeApiToken } = await call(a.url, 'POST', `/api/v1/deployments/${id}/token`, key, {});

    const load = `/d/${id}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify({ measures: ['slow.total'] }))}`;
    expect(await call(a.url, 'GET', load, cubeApiToken)).toEqual({ error: 'Continue wait' });
    let answer = await call(b.url, 'GET', load, cubeApiToken);
    for (let i = 0; i < 2000 && answer.error === 'Continue wait'; i += 1) answer = await call(b.url, 'GET', load, cubeApiToken);
    expect(answer.data).toEqual([{ 'slow.total': '1999800000000' }]);
    // A answers it from the same stored result: the time the warehouse answered, once.
    expect((await call(a.url, 'GET', load, cubeApiToken)).lastRefreshTime).toBe(answer.lastRefreshTime);
    expect(a.output() + b.output()).not.toMatch(/Redis at .* cannot be used/);
  });
});
