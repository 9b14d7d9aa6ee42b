import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadRequest } from '@plinth/semantic';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createJobRunner } from '../../jobs/index.js';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { adminOf, commitFiles, newDeployment } from '../builds/test-fixtures.js';
import { asToken, dataDirOverride, tokenOf } from '../data-api/test-fixtures.js';
import { cases } from './authorization.cases.js';
import { RETIRED_FILE_GRACE_MS } from './service.js';
import { dayBefore, eventSource, eventsModel, eventsQuery, requestBuild, sourceKinds, type EventSource } from './test-fixtures.js';

type Answer = { data: unknown[]; usedPreAggregations?: Record<string, { targetTableName: string }> };

describeOnStores(
  'pre-aggregations',
  (server) => {
    describe.each(sourceKinds)('on a %s source', (kind) => {
      let account: TestAccount;
      let deploymentId = 0;
      let source: EventSource;
      const target = () => ({ deploymentId });
      const context = () => asToken(tokenOf(account.id, deploymentId))[0];
      const load = async (query: unknown) => (await server().services.dataApi.load(context(), target(), query)) as Answer;
      /** The warehouse's own answer: the same model and query with no rollup offered. */
      const raw = async (query: unknown) => {
        const model = await server().services.dataApi.modelOf(context(), target());
        const warehouse = await server().services.dataApi.warehouseOf(account.id, deploymentId);
        return (await loadRequest(model, query, { warehouse })) as Answer;
      };
      const list = async () => {
        const response = await account.request({
          method: 'GET',
          url: `/api/v1/deployments/${deploymentId}/pre-aggregations`,
          as: account.admin,
        });
        expect(response.status, response.text).toBe(200);
        return response.body as {
          buildId: number;
          state: string;
          items: Array<{ partitions: Array<{ name: string; version: string; rangeEnd: string }> } & Record<string, unknown>>;
        };
      };
      const versions = async () => Object.fromEntries((await list()).items[0]!.partitions.map((p) => [p.name, p.version]));

      beforeAll(async () => {
        account = await server().newAccount();
        deploymentId = await newDeployment(account);
        source = await eventSource(server().services, adminOf(account), deploymentId, kind);
        await commitFiles(server().services, adminOf(account), deploymentId, eventsModel(source.table));
        await server().jobs.runUntilIdle();
      });
      afterAll(async () => source?.close());

      it('a rollup is built with the build, partition by partition, and a matching load is answered from it with the warehouse’s answer', async () => {
        const listed = await list();
        expect(listed.state).toBe('ready');
        const [daily] = listed.items;
        expect(daily).toMatchObject({ id: 'events.daily', tableName: 'events_daily', lastError: null });
        expect(daily!['partitionCount']).toBeGreaterThanOrEqual(3);
        expect(daily!['builtPartitions']).toBe(daily!['partitionCount']);
        expect(daily!['rows']).toBeGreaterThan(0);
        const answer = await load(eventsQuery());
        expect(Object.keys(answer.usedPreAggregations ?? {})).toEqual(['prod_pre_aggregations.events_daily']);
        const truth = await raw(eventsQuery());
        expect(truth.usedPreAggregations).toBeUndefined();
        expect(answer.data).toEqual(truth.data);
        expect(answer.data.length).toBeGreaterThan(2);
        // Once this process has its in-memory copy of the rollup's files, loads read it, with the same answer.
        await server().services.preAggregations.copiesMade();
        const model = await server().services.dataApi.modelOf(context(), target());
        const offered = await server().services.preAggregations.available(listed.buildId, model);
        expect(server().services.preAggregations.forQuery(offered)[0]!.from).toMatch(/^plinth_rollup_\d+$/);
        const copied = await load({ ...eventsQuery(), renewQuery: true });
        expect(copied.usedPreAggregations).toEqual(answer.usedPreAggregations);
        expect(copied.data).toEqual(truth.data);
      });

      it('a partition rebuilt after the warehouse changed changes the answer at once: no cached answer of the old version is served', async () => {
        const before = await load(eventsQuery());
        const filesOf = async () =>
          (await server().store.db.selectFrom('rollup_partition').select('file').where('deployment_id', '=', deploymentId).execute()).map(
            (row) => join(server().config.dataDir, row.file!),
          );
        const oldFiles = await filesOf();
        await source.add(`${dayBefore(2)} 12:00:00`, '1000.50');
        expect((await load(eventsQuery())).data).toEqual(before.data);
        const build = await requestBuild(account, deploymentId);
        expect(build.body.items).toEqual([expect.objectContaining({ preAggregation: 'events.daily', state: 'queued', partitions: null })]);
        await server().jobs.runUntilIdle();
        const after = await load(eventsQuery());
        expect(after.data).not.toEqual(before.data);
        expect(after.data).toEqual((await raw(eventsQuery())).data);
        expect(after.usedPreAggregations).toBeDefined();
        // Read from the new version's own copy once made: never the old copy's rows.
        await server().services.preAggregations.copiesMade();
        expect((await load({ ...eventsQuery(), renewQuery: true })).data).toEqual(after.data);
        // The replaced versions' files stay for readers that listed them just before, then go.
        for (const file of oldFiles) expect(existsSync(file), file).toBe(true);
        expect(
          (await server().services.preAggregations.sweepFiles(Date.now() + RETIRED_FILE_GRACE_MS + 1000)).deleted,
        ).toBeGreaterThanOrEqual(oldFiles.length);
        for (const file of oldFiles) expect(existsSync(file), file).toBe(false);
        for (const file of await filesOf()) expect(existsSync(file), file).toBe(true);
      });

      it('an incremental refresh rebuilds only the partitions within the update window', async () => {
        const runner = server().jobs;
        const before = await versions();
        const ends = Object.fromEntries((await list()).items[0]!.partitions.map((p) => [p.name, p.rangeEnd]));
        const clock = runner.queue.now;
        const later = Date.now() + 2 * 3_600_000;
        runner.queue.now = () => later;
        try {
          expect(await runner.scheduler.tick()).toBeGreaterThanOrEqual(1);
          await runner.runUntilIdle();
        } finally {
          runner.queue.now = clock;
        }
        const after = await versions();
        const windowStart = new Date(later - 7 * 86_400_000).toISOString().slice(0, 23);
        const recent = Object.keys(before).filter((name) => ends[name]! > windowStart);
        expect(recent.length).toBeGreaterThanOrEqual(1);
        expect(recent.length).toBeLessThan(Object.keys(before).length);
        for (const name of Object.keys(before)) {
          if (recent.includes(name)) expect(after[name], name).not.toBe(before[name]);
          else expect(after[name], name).toBe(before[name]);
        }
        expect((await load(eventsQuery())).data).toEqual((await raw(eventsQuery())).data);
      });

      it('a cube’s refresh_key.every ends a cached answer’s life for a query no rollup answers', async () => {
        const total = { measures: ['events.count'], filters: [{ member: 'events.id', operator: 'gte', values: ['0'] }] };
        const before = await load(total);
        expect(before.usedPreAggregations).toBeUndefined();
        await source.add(`${dayBefore(3)} 06:00:00`, '1.00');
        expect((await load(total)).data).toEqual(before.data);
        // A minute on (the cube's every), well within the result cache's ten minutes: read again.
        vi.useFakeTimers({ toFake: ['Date'] });
        try {
          vi.setSystemTime(Date.now() + 61_000);
          const after = await load(total);
          expect(after.data).not.toEqual(before.data);
          expect(after.data).toEqual((await raw(total)).data);
        } finally {
          vi.useRealTimers();
        }
      });

      it('a new build keeps the previous one serving until its rollups are built, then serves', async () => {
        const served = await list();
        await commitFiles(
          server().services,
          adminOf(account),
          deploymentId,
          eventsModel(source.table, '\n      - { name: top, type: max, sql: amount }'),
        );
        // Only the builds queue runs: the new build compiles, its rollups wait on theirs.
        await createJobRunner({ store: server().store, services: server().services, config: server().config }, undefined, [
          'builds',
        ]).runUntilIdle();
        const waiting = await list();
        expect(waiting.buildId).toBeGreaterThan(served.buildId);
        expect(waiting.state).toBe('building');
        const topQuery = { measures: ['events.top'] };
        await expect(server().services.dataApi.load(context(), target(), topQuery)).rejects.toThrow(/events.top/);
        expect((await load(eventsQuery())).usedPreAggregations).toBeDefined();
        await server().jobs.runUntilIdle();
        expect((await list()).state).toBe('ready');
        expect((await load(topQuery)).data).toEqual((await raw(topQuery)).data);
        expect((await load(eventsQuery())).data).toEqual((await raw(eventsQuery())).data);
      });
    });

    it('refresh_key.sql is looked at on its throttle, and a new value of a key that reads no partition range rebuilds every partition', async () => {
      const account = await server().newAccount();
      const deploymentId = await newDeployment(account);
      const source = await eventSource(server().services, adminOf(account), deploymentId, 'duckdb');
      await commitFiles(
        server().services,
        adminOf(account),
        deploymentId,
        eventsModel(source.table, '', undefined, '{ sql: "SELECT max(id) FROM events" }'),
      );
      const runner = server().jobs;
      await runner.runUntilIdle();
      const versions = async () => {
        const listed = await account.request({
          method: 'GET',
          url: `/api/v1/deployments/${deploymentId}/pre-aggregations`,
          as: account.admin,
        });
        return (listed.body.items[0].partitions as Array<{ name: string; version: string }>).map((p) => p.version);
      };
      const built = await versions();
      const clock = runner.queue.now;
      const tick = async (ms: number) => {
        runner.queue.now = () => Date.now() + ms;
        try {
          const queued = await runner.scheduler.tick();
          await runner.runUntilIdle();
          return queued;
        } finally {
          runner.queue.now = clock;
        }
      };
      // Within the 10-second throttle nothing is looked at; past it, the same value rebuilds nothing.
      expect(await tick(1_000)).toBe(0);
      expect(await tick(11_000)).toBe(1);
      expect(await versions()).toEqual(built);
      await source.add(`${dayBefore(40)} 06:00:00`, '2.00');
      expect(await tick(22_000)).toBe(1);
      const rebuilt = await versions();
      for (const [i, version] of rebuilt.entries()) expect(version).not.toBe(built[i]);
      const context = asToken(tokenOf(account.id, deploymentId))[0];
      const answer = (await server().services.dataApi.load(context, { deploymentId }, eventsQuery())) as Answer;
      const model = await server().services.dataApi.modelOf(context, { deploymentId });
      const warehouse = await server().services.dataApi.warehouseOf(account.id, deploymentId);
      expect(answer.usedPreAggregations).toBeDefined();
      expect(answer.data).toEqual(((await loadRequest(model, eventsQuery(), { warehouse })) as Answer).data);
    });

    describe('failures', () => {
      it('a rollup that cannot be built is retried, then its build serves from the warehouse; the error shows in the list and the jobs', async () => {
        const account = await server().newAccount();
        const deploymentId = await newDeployment(account);
        await commitFiles(server().services, adminOf(account), deploymentId, eventsModel('no_such_table'));
        const runner = server().jobs;
        const clock = runner.queue.now;
        try {
          let at = Date.now();
          for (let i = 0; i < 4; i++) {
            runner.queue.now = () => at;
            await runner.runUntilIdle();
            at += 3_600_000;
          }
        } finally {
          runner.queue.now = clock;
        }
        const base = `/api/v1/deployments/${deploymentId}/pre-aggregations`;
        const listed = await account.request({ method: 'GET', url: base, as: account.admin });
        expect(listed.body).toMatchObject({ state: 'failed', error: expect.stringContaining('no_such_table') });
        expect(listed.body.items[0].lastError).toContain('no_such_table');
        const jobs = await account.request({ method: 'GET', url: `${base}/jobs`, as: account.admin });
        expect(jobs.body.items[0]).toMatchObject({
          preAggregation: 'events.daily',
          state: 'dead',
          attempts: 3,
          lastError: expect.stringContaining('no_such_table'),
        });
        const preview = await account.request({ method: 'GET', url: `${base}/events.daily/preview`, as: account.admin });
        expect(preview.status).toBe(400);
        expect(preview.body.error).toBe('Pre-aggregation events.daily is not built yet');
        const unknown = await account.request({
          method: 'POST',
          url: `${base}/build`,
          as: account.admin,
          body: { preAggregations: ['events.nope'] },
        });
        expect([unknown.status, unknown.body.error]).toEqual([
          404,
          expect.stringMatching(/^Pre-aggregation events.nope not found in build \d+$/),
        ]);
      });
    });

    authorizationSuite(server, cases);
  },
  dataDirOverride(),
);
