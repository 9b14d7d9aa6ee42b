import { afterAll, describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { contextFor } from '../../pipeline/context.js';
import { asToken, dataDirOverride, gateWarehouse, sampleDeployment, serviceOn, tokenOf } from './test-fixtures.js';
import type { DataApiService } from './service.js';
import { adminOf, commitFiles, newDeployment } from '../builds/test-fixtures.js';

describeOnStores(
  'data API service',
  (server) => {
    const services: DataApiService[] = [];
    const make = (overrides: Record<string, unknown> = {}) => {
      const service = serviceOn(server(), overrides);
      services.push(service);
      return service;
    };
    afterAll(async () => {
      for (const service of services) await service.close();
    });

    it('loads from the deploy branch’s latest build: single, array with queryType multi, and meta', async () => {
      const service = make();
      const { principal } = await sampleDeployment(server(), service);
      const on = asToken(principal);
      const single = (await service.load(...on, {
        measures: ['orders.count'],
        dimensions: ['orders.status'],
        order: { 'orders.status': 'asc' },
      })) as any;
      expect(single.query.measures).toEqual(['orders.count']);
      expect(single.data.length).toBeGreaterThan(0);
      expect(single.data[0]).toEqual({ 'orders.status': expect.any(String), 'orders.count': expect.any(String) });
      expect(single.annotation.measures['orders.count']).toMatchObject({ type: 'number' });

      const multi = (await service.load(
        ...on,
        [
          { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'year' }] },
          { measures: ['customers.count'], timeDimensions: [{ dimension: 'customers.created_at', granularity: 'year' }] },
        ],
        { queryType: 'multi' },
      )) as any;
      expect(multi.queryType).toBe('blendingQuery');
      expect(multi.results).toHaveLength(2);

      const meta = await service.meta(...on);
      expect(meta.cubes.map((c) => c.name)).toEqual(expect.arrayContaining(['orders', 'customers', 'line_items']));
    });

    it('sql and dry-run answer what a load would run, bound parameters apart, without running it', async () => {
      const service = make();
      const { principal } = await sampleDeployment(server(), service);
      const on = asToken(principal);
      const query = { measures: ['orders.count'], filters: [{ member: 'orders.status', operator: 'equals', values: ["x' OR 1=1"] }] };
      const sql = (await service.sql(...on, query)) as any;
      expect(sql.sql.sql[0]).toMatch(/select/i);
      expect(sql.sql.sql[0]).not.toContain("x' OR 1=1");
      expect(sql.sql.sql[1]).toContain("x' OR 1=1");
      const dry = (await service.dryRun(...on, query)) as any;
      expect(dry).toMatchObject({ queryType: 'regularQuery', normalizedQueries: [{ measures: ['orders.count'] }] });
      await expect(service.sql(...on, { measures: ['orders.nope'] })).rejects.toMatchObject({ status: 400 });
    });

    it.each([
      ['an unknown member', { measures: ['orders.nope'] }, /nope/],
      [
        'a wrong operator',
        { measures: ['orders.count'], filters: [{ member: 'orders.status', operator: 'bogus', values: ['x'] }] },
        /operator/i,
      ],
      ['a limit above the cap', { measures: ['orders.count'], limit: 10_001 }, /maximum is 10000/],
      ['an array without queryType multi', [{ measures: ['orders.count'] }, { measures: ['customers.count'] }], /not supported/],
    ])('refuses %s with a 400 and the message', async (_name, query, message) => {
      const service = make();
      const { principal } = await sampleDeployment(server(), service);
      await expect(service.load(...asToken(principal), query)).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(message),
      });
    });

    it('a branch without a successful build is a 400 naming it; a token of another deployment is refused', async () => {
      const service = make();
      const account = await server().newAccount();
      const deploymentId = await newDeployment(account);
      await expect(service.meta(...asToken(tokenOf(account.id, deploymentId)))).rejects.toMatchObject({
        status: 400,
        message: 'No successful build of branch main yet',
      });
      await commitFiles(server().services, adminOf(account), deploymentId, { 'model/cubes/x.yml': 'cubes:\n  - name: x\n' });
      await expect(service.meta(contextFor(tokenOf(account.id, deploymentId + 1000)), { deploymentId })).rejects.toMatchObject({
        status: 403,
      });
    });

    it('a slow query answers Continue wait, the retry gets the data, and identical queries share one execution', async () => {
      const service = make({ continueWaitMs: 50 });
      const { account, deploymentId, principal } = await sampleDeployment(server(), service);
      const gated = await gateWarehouse([service], account.id, deploymentId);
      const slow = asToken(principal);
      gated.hold();
      const query = { measures: ['orders.count'] };
      const [first, second] = await Promise.all([service.load(...slow, query), service.load(...slow, { ...query })]);
      expect(first).toEqual({ error: 'Continue wait' });
      expect(second).toEqual({ error: 'Continue wait' });
      expect(gated.counter.executions).toBe(1);
      gated.release();
      // The retries join the one execution until it is done (on a loaded machine it may outlast one 50 ms wait).
      let retry = (await service.load(...slow, query)) as any;
      while (retry.error === 'Continue wait') retry = await service.load(...slow, query);
      expect(retry.data).toEqual([{ 'orders.count': expect.any(String) }]);
      expect(gated.counter.executions).toBe(1);
      // Cached: answered again without the warehouse.
      await service.load(...slow, query);
      expect(gated.counter.executions).toBe(1);
    });
  },
  dataDirOverride(),
);

describe('data API limit cap', () => {
  it('is configurable', async () => {
    const { capLimit } = await import('./query-input.js');
    expect(() => capLimit({ limit: 600 }, 500)).toThrow(/maximum is 500/);
    expect(capLimit({}, 500)).toEqual({ limit: 500 });
    expect(capLimit([{ limit: 5 }], 500)).toEqual([{ limit: 5 }]);
  });
});
