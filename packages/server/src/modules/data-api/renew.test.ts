import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, expect, it, vi } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { RENEW_WINDOW_MS } from './query-executor.js';
import { cacheControls } from './query-input.js';
import type { DataApiService } from './service.js';
import { asToken, dataDirOverride, gateWarehouse, sampleDeployment, serviceOn } from './test-fixtures.js';

const REDIS_URL = process.env.PLINTH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Parallel test runs share the one Redis: each keeps to its own namespace. */
const namespace = `test-${randomBytes(6).toString('hex')}`;
const QUERY = { measures: ['orders.count'], dimensions: ['orders.status'], order: { 'orders.status': 'asc' } };

const EXECUTORS = [
  ['per process', { redisUrl: undefined }],
  ['through Redis', {}],
] as const;

describeOnStores(
  'renewQuery and cache modes on load, counting warehouse executions',
  (server) => {
    const services: DataApiService[] = [];
    const redis = new Redis(REDIS_URL);
    const make = (overrides: Record<string, unknown>) => {
      const service = serviceOn(server(), { continueWaitMs: 60_000, ...overrides });
      services.push(service);
      return service;
    };
    /** A deployment on a fresh service, its warehouse counted; `other` is a second process on the same executor store. */
    const setup = async (overrides: Record<string, unknown>) => {
      const service = make(overrides);
      // Per process there is nothing to share between two services: "another process" is the same one.
      const other = 'redisUrl' in overrides ? service : make(overrides);
      const { account, deploymentId, principal } = await sampleDeployment(server(), service);
      const gated = await gateWarehouse(other === service ? [service] : [service, other], account.id, deploymentId);
      return { service, other, gated, served: asToken(principal) };
    };
    /** The cached answers become older than the renew window: Redis loses its marks, the process's clock moves on. */
    const ageResults = async (overrides: Record<string, unknown>) => {
      if ('redisUrl' in overrides) {
        if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(Date.now() + RENEW_WINDOW_MS + 1);
      } else {
        const keys = await redis.keys(`plinth:dataapi:${namespace}:*:fresh`);
        if (keys.length > 0) await redis.del(...keys);
      }
    };
    afterEach(() => vi.useRealTimers());
    afterAll(async () => {
      for (const service of services) await service.close();
      const keys = await redis.keys(`plinth:dataapi:${namespace}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    it.each(EXECUTORS)(
      'renewQuery: true runs the query again and replaces the cached answer, for every process (%s)',
      async (_n, overrides) => {
        const { service, other, gated, served } = await setup(overrides);
        const first = (await service.load(...served, QUERY)) as any;
        expect(await other.load(...served, { ...QUERY })).toEqual(first);
        expect(gated.counter.executions).toBe(1);
        await ageResults(overrides);
        const renewed = (await other.load(...served, { ...QUERY, renewQuery: true })) as any;
        expect(gated.counter.executions).toBe(2);
        expect(renewed.data).toEqual(first.data);
        // The cache controls are not part of the query the answer echoes: the renew shares the plain query's entry.
        expect(renewed.query).toEqual(first.query);
        // Later plain loads, on either process, get the renewed answer, without running it a third time.
        expect(await service.load(...served, QUERY)).toEqual(renewed);
        expect(gated.counter.executions).toBe(2);
      },
    );

    it.each(EXECUTORS)(
      'Cube’s cache modes: must-revalidate and no-cache renew, stale-if-slow and stale-while-revalidate use the cache (%s)',
      async (_n, overrides) => {
        const { service, gated, served } = await setup(overrides);
        await service.load(...served, QUERY);
        expect(gated.counter.executions).toBe(1);
        for (const [mode, executions] of [
          ['stale-if-slow', 1],
          ['stale-while-revalidate', 1],
          ['must-revalidate', 2],
          ['no-cache', 3],
        ] as const) {
          await ageResults(overrides);
          await service.load(...served, { ...QUERY, cache: mode });
          expect(gated.counter.executions, mode).toBe(executions);
        }
        // cacheMode, Cube's other spelling, and renewQuery: false (the default) too.
        await ageResults(overrides);
        await service.load(...served, { ...QUERY, cacheMode: 'no-cache' });
        expect(gated.counter.executions).toBe(4);
        await service.load(...served, { ...QUERY, renewQuery: false });
        expect(gated.counter.executions).toBe(4);
      },
    );

    it.each(EXECUTORS)(
      'a renew’s Continue wait retries, on either process, get the one execution it started (%s)',
      async (_n, overrides) => {
        const { service, other, gated, served } = await setup({ ...overrides, continueWaitMs: 30 });
        await expect.poll(() => service.load(...served, QUERY)).toHaveProperty('data');
        await ageResults(overrides);
        gated.hold();
        const renew = { ...QUERY, renewQuery: true };
        expect(await service.load(...served, renew)).toEqual({ error: 'Continue wait' });
        for (const process of [other, service, other]) expect(await process.load(...served, renew)).toEqual({ error: 'Continue wait' });
        gated.release();
        let answer = (await other.load(...served, renew)) as any;
        for (let retry = 0; retry < 200 && answer.error === 'Continue wait'; retry += 1) answer = await other.load(...served, renew);
        expect(answer.data.length).toBeGreaterThan(0);
        // And the client's retry after the answer was written is given it too.
        expect(await service.load(...served, renew)).toEqual(answer);
        expect(gated.counter.executions).toBe(2);
      },
    );

    it('a cache control that is not valid is left for the engine, which refuses it by name', async () => {
      const { service, served } = await setup({ redisUrl: undefined });
      await expect(service.load(...served, { ...QUERY, cache: 'sometimes' })).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining('"cache" must be one of stale-if-slow, stale-while-revalidate, must-revalidate, no-cache'),
      });
      await expect(service.load(...served, { ...QUERY, renewQuery: 'now' })).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining('"renewQuery" must be true or false'),
      });
    });
  },
  { ...dataDirOverride(), PLINTH_REDIS_URL: REDIS_URL, PLINTH_REDIS_NAMESPACE: namespace },
);

it('cacheControls takes the controls out of each query of an array and renews when any asks', () => {
  expect(
    cacheControls([
      { measures: ['a.b'], cache: 'stale-if-slow' },
      { measures: ['c.d'], renewQuery: true },
    ]),
  ).toEqual({
    query: [{ measures: ['a.b'] }, { measures: ['c.d'] }],
    renew: true,
  });
  expect(cacheControls({ measures: ['a.b'], cacheMode: 'bogus' })).toEqual({
    query: { measures: ['a.b'], cacheMode: 'bogus' },
    renew: false,
  });
});
