import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleModelFiles, type Warehouse } from '@plinth/semantic';
import { Redis } from 'ioredis';
import { afterAll, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.js';
import { createServices } from '../../services.js';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import type { DataApiService } from './service.js';
import { asToken, dataDirOverride, gateWarehouse, sampleDeployment, serviceOn } from './test-fixtures.js';

const REDIS_URL = process.env.PLINTH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Parallel test runs share the one Redis: each keeps to its own namespace. */
const namespace = `test-${randomBytes(6).toString('hex')}`;
const QUERY = { measures: ['orders.count'], dimensions: ['orders.status'], order: { 'orders.status': 'asc' } };

/**
 * A cube whose every query makes DuckDB sum four hundred million rows: genuinely slow, well past
 * the 30 ms continue-wait on any machine, with no gate involved.
 */
const SLOW_CUBE = `cubes:
  - name: slow
    sql: "SELECT a.range AS id FROM range(10000) a CROSS JOIN range(40000) b"
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

/** Counts the queries a warehouse runs, on the very instance the service holds. */
function countQueries(warehouse: Warehouse) {
  const counter = { executions: 0 };
  const query = warehouse.query.bind(warehouse);
  warehouse.query = (...args) => {
    counter.executions += 1;
    return query(...args);
  };
  return counter;
}

describeOnStores(
  'data API executor shared between processes',
  (server) => {
    const services: DataApiService[] = [];
    const make = (overrides: Record<string, unknown> = {}) => {
      const service = serviceOn(server(), overrides);
      services.push(service);
      return service;
    };
    afterAll(async () => {
      for (const service of services) await service.close();
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`plinth:dataapi:${namespace}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    it.each([
      ['per process', { redisUrl: undefined }],
      ['through Redis, over two processes', {}],
    ])('100 identical concurrent cold loads run the warehouse query exactly once (%s)', async (_name, overrides) => {
      const [a, b] = [make({ ...overrides, continueWaitMs: 60_000 }), make({ ...overrides, continueWaitMs: 60_000 })];
      const { account, deploymentId, principal } = await sampleDeployment(server(), a);
      const gated = await gateWarehouse([a, b], account.id, deploymentId);
      const counted = asToken(principal);
      // One process per executor: on Redis both share one execution; per process, each service would run its own.
      const executors = 'redisUrl' in overrides ? [a] : [a, b];
      const answers = (await Promise.all(
        Array.from({ length: 100 }, (_, i) => executors[i % executors.length]!.load(...counted, { ...QUERY })),
      )) as any[];
      expect(gated.counter.executions).toBe(1);
      const [first] = answers;
      expect(first.data.length).toBeGreaterThan(0);
      expect(new Date(first.lastRefreshTime).toISOString()).toBe(first.lastRefreshTime);
      for (const answer of answers) expect(answer).toEqual(first);
    });

    it('lastRefreshTime is in the single shape and in each multi result, and a cached answer keeps it', async () => {
      const service = make({ continueWaitMs: 60_000 });
      const { account, deploymentId, principal } = await sampleDeployment(server(), service);
      const served = asToken(principal);
      const blended = [
        { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'year' }] },
        { measures: ['customers.count'], timeDimensions: [{ dimension: 'customers.created_at', granularity: 'year' }] },
      ];
      const multi = (await service.load(...served, blended, { queryType: 'multi' })) as any;
      expect(multi.results).toHaveLength(2);
      for (const result of multi.results) expect(result.lastRefreshTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const single = (await service.load(...served, QUERY)) as any;
      expect(single.lastRefreshTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // A query run again from now on would carry a later time.
      await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(Date.parse(single.lastRefreshTime)), { interval: 1 });
      const other = make({ continueWaitMs: 60_000 });
      // The same warehouse as the first process's (one DuckDB file, opened once per process).
      await gateWarehouse([service, other], account.id, deploymentId);
      expect(((await other.load(...served, QUERY)) as any).lastRefreshTime).toBe(single.lastRefreshTime);
    });

    it('two server instances on one store and one Redis: Continue wait on A, the retry on B gets the rows, one execution', async () => {
      const a = server();
      const { account, deploymentId } = await sampleDeployment(a, a.services.dataApi, {
        ...sampleModelFiles(),
        'model/slow.yml': SLOW_CUBE,
      });
      const b = await secondInstance(a);
      try {
        const token = await mint(account, deploymentId);
        const executionsA = countQueries(await a.services.dataApi.warehouses.get(account.id, deploymentId));
        // B has a data dir of its own, as another machine would: its own (empty) embedded DuckDB.
        const executionsB = countQueries(await b.services.dataApi.warehouses.get(account.id, deploymentId));
        const url = `/d/${deploymentId}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify({ measures: ['slow.total'] }))}`;
        const ask = async (app: typeof a.app) => {
          const response = await app.inject({ method: 'GET', url, headers: { host: account.host, authorization: token } });
          expect(response.statusCode, response.body).toBe(200);
          return response.json();
        };
        expect(await ask(a.app)).toEqual({ error: 'Continue wait' });
        let answer = await ask(b.app);
        for (let attempt = 0; attempt < 600 && answer.error === 'Continue wait'; attempt += 1) answer = await ask(b.app);
        expect(answer.data).toEqual([{ 'slow.total': '1999800000000' }]);
        expect(executionsA.executions).toBe(1);
        expect(executionsB.executions).toBe(0);
        // A now answers from Redis too, with the time the warehouse answered.
        expect((await ask(a.app)).lastRefreshTime).toBe(answer.lastRefreshTime);
        expect(executionsA.executions).toBe(1);
      } finally {
        await b.app.close();
      }
    });
  },
  { ...dataDirOverride(), PLINTH_REDIS_URL: REDIS_URL, PLINTH_REDIS_NAMESPACE: namespace, PLINTH_CONTINUE_WAIT_MS: '30' },
);

/** Another server process as far as the executor is concerned: its own services and app on the same store and Redis. */
async function secondInstance(first: TestServer) {
  const config = { ...first.config, dataDir: mkdtempSync(join(tmpdir(), 'plinth-data-api-b-')) };
  const services = await createServices(first.store, config);
  const app = await buildApp({ config, store: first.store, services, log: false });
  await app.ready();
  return { app, services };
}

async function mint(account: Awaited<ReturnType<TestServer['newAccount']>>, deploymentId: number) {
  const response = await account.request({ method: 'POST', url: `/api/v1/deployments/${deploymentId}/token`, as: account.admin, body: {} });
  if (response.status !== 200) throw new Error(`token: ${response.status} ${response.text}`);
  return response.body.cubeApiToken as string;
}
