import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBWarehouse } from '@plinth/semantic';
import { afterAll, describe, expect, it } from 'vitest';
import { ownDatabase } from '../../test-support/database-url.js';
import { serverProcesses } from '../../test-support/server-process.js';
import { EVENT_DAYS, dayBefore, eventsModel, eventsQuery } from './test-fixtures.js';

const DATABASE_URL = process.env.DATABASE_URL;
const API_KEY = `sk-${randomBytes(16).toString('hex')}`;
const KEY = `Api-Key ${API_KEY}`;

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

/** Polls until `done` holds; bounded by the count, never by the clock. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 1200 && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

// Two real processes on one PostgreSQL store and one data directory: the embedded store cannot be shared.
describe.skipIf(!DATABASE_URL)('pre-aggregations: two plinth-server processes sharing a data directory', { timeout: 300_000 }, () => {
  const servers = serverProcesses();
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-rollup-procs-'));
  let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
  afterAll(async () => {
    await servers.stopAll();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('each rollup is built once, by one of them, and loads on both, during rebuilds, always read whole partitions', async () => {
    database = await ownDatabase('plinth_rollup_procs');
    const env = {
      DATABASE_URL: database.url,
      PLINTH_DATA_DIR: dataDir,
      PLINTH_BOOTSTRAP_API_KEY: API_KEY,
      PLINTH_JOB_POLL_MS: '100',
      PLINTH_DEMO: '0',
      PLINTH_LOG_LEVEL: 'warn',
    };
    const [a, b] = await Promise.all([servers.start(env), servers.start(env)]);
    const { id } = await call(a.url, 'POST', '/api/v1/deployments', KEY, { name: 'Rollups' });
    mkdirSync(join(dataDir, 'warehouses'), { recursive: true });
    const seed = await DuckDBWarehouse.open({ path: join(dataDir, 'warehouses', `${id}.duckdb`) });
    await seed.exec(
      `CREATE TABLE events AS SELECT CAST(i AS INTEGER) AS id, CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END AS kind,
         CAST(i % 7 AS DECIMAL(10,2)) + 0.25 AS amount, TIMESTAMP '${dayBefore(EVENT_DAYS)} 00:00:00' + i * INTERVAL '1 hour' AS created_at
       FROM range(0, ${EVENT_DAYS * 24}) AS t(i)`,
    );
    await seed.close();

    const content = eventsModel('events')['model/events.yml']!;
    const uploads = `/build/api/v1/deployments/${id}/uploads`;
    const session = await call(a.url, 'POST', uploads, KEY, {
      files: { 'model/events.yml': createHash('sha256').update(content).digest('hex') },
    });
    await call(a.url, 'PUT', `${uploads}/${session.uploadId}/files`, KEY, { path: 'model/events.yml', content });
    await call(a.url, 'POST', `${uploads}/${session.uploadId}/finish`, KEY);
    const list = () => call(b.url, 'GET', `/api/v1/deployments/${id}/pre-aggregations`, KEY);
    const ready = await until(list, (body) => body.state === 'ready');
    expect(ready.state).toBe('ready');
    const partitions = ready.items[0].partitions as Array<{ name: string }>;
    // One file per partition: neither process built a partition the other was building.
    const folder = join(dataDir, 'rollups', String(id), String(ready.buildId), 'events.daily');
    expect(readdirSync(folder).filter((f) => f.endsWith('.parquet'))).toHaveLength(partitions.length);
    const jobs = await call(a.url, 'GET', `/api/v1/deployments/${id}/pre-aggregations/jobs`, KEY);
    expect(jobs.items).toEqual([expect.objectContaining({ preAggregation: 'events.daily', state: 'succeeded', attempts: 1 })]);

    const { cubeApiToken } = await call(a.url, 'POST', `/api/v1/deployments/${id}/token`, KEY, {});
    // renewQuery: every load reads the partitions again rather than a cached answer.
    const load = `/d/${id}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify({ ...eventsQuery(), renewQuery: true }))}`;
    const first = await call(a.url, 'GET', load, cubeApiToken);
    expect(Object.keys(first.usedPreAggregations)).toEqual(['prod_pre_aggregations.events_daily']);

    let rebuilding = true;
    const answers: unknown[] = [];
    const reader = async (url: string) => {
      while (rebuilding) answers.push((await call(url, 'GET', load, cubeApiToken)).data);
    };
    const readers = [reader(a.url), reader(b.url)];
    for (let round = 0; round < 3; round++) {
      const queued = await call(round % 2 ? a.url : b.url, 'POST', `/api/v1/deployments/${id}/pre-aggregations/build`, KEY, {});
      const jobId = queued.items[0].id;
      const done = await until(
        () => call(a.url, 'GET', `/api/v1/deployments/${id}/pre-aggregations/jobs`, KEY),
        (body) => body.items.some((job: { id: number; state: string }) => job.id === jobId && job.state === 'succeeded'),
      );
      expect(done.items.find((job: { id: number }) => job.id === jobId)).toMatchObject({ state: 'succeeded', attempts: 1 });
    }
    rebuilding = false;
    await Promise.all(readers);
    expect(answers.length).toBeGreaterThan(2);
    for (const data of answers) expect(data).toEqual(first.data);
  });
});
