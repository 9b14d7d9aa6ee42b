import { loadRequest } from '@plinth/semantic';
import { afterEach, describe, expect, it } from 'vitest';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { adminOf, commitFiles, newDeployment } from '../builds/test-fixtures.js';
import { asToken, dataDirOverride, tokenOf } from '../data-api/test-fixtures.js';
import { REFRESH_JOB } from './jobs.js';
import { dayBefore, eventSource, eventsModel, eventsQuery, sourceKinds, type EventSource } from './test-fixtures.js';

type Partition = { name: string; version: string; rangeEnd: string };

/** A refresh key that reads only the partition's rows: the latest change among them. */
const perPartitionKey = (table: string, more = '') =>
  `{ sql: "SELECT max(updated_at) FROM ${table} WHERE {FILTER_PARAMS.events.created_at.filter('created_at')}"${more} }`;

/** A deployment whose events rollup is refreshed by `refreshKey`, built; its partitions and refreshes as they go. */
async function builtRollup(server: TestServer, kind: (typeof sourceKinds)[number], refreshKey: (table: string) => string) {
  const account: TestAccount = await server.newAccount();
  const deploymentId = await newDeployment(account);
  const source: EventSource = await eventSource(server.services, adminOf(account), deploymentId, kind);
  await commitFiles(server.services, adminOf(account), deploymentId, eventsModel(source.table, '', undefined, refreshKey(source.table)));
  await server.jobs.runUntilIdle();
  const partitions = async (): Promise<Partition[]> => {
    const listed = await account.request({ method: 'GET', url: `/api/v1/deployments/${deploymentId}/pre-aggregations`, as: account.admin });
    expect(listed.status, listed.text).toBe(200);
    return listed.body.items[0].partitions as Partition[];
  };
  const versions = async () => Object.fromEntries((await partitions()).map((p) => [p.name, p.version]));
  /** Runs the refresh checks due `ms` from now; the partitions the refresh read the key of and built. */
  const checkAfter = async (ms: number) => {
    const runner = server.jobs;
    const clock = runner.queue.now;
    runner.queue.now = () => Date.now() + ms;
    try {
      expect(await runner.scheduler.tick()).toBe(1);
      await runner.runUntilIdle();
    } finally {
      runner.queue.now = clock;
    }
    const job = await server.store.db
      .selectFrom('job')
      .select(['result', 'state'])
      .where('kind', '=', REFRESH_JOB)
      .where('account_id', '=', account.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(job.state).toBe('succeeded');
    return job.result as { checked: string[]; built: string[] };
  };
  /** The data API's answer and the warehouse's own, for the query the rollup answers. */
  const answers = async () => {
    const [context, target] = asToken(tokenOf(account.id, deploymentId));
    const served = (await server.services.dataApi.load(context, target, { ...eventsQuery(), renewQuery: true })) as { data: unknown[] };
    const model = await server.services.dataApi.modelOf(context, target);
    const warehouse = await server.services.dataApi.warehouseOf(account.id, deploymentId);
    const raw = (await loadRequest(model, eventsQuery(), { warehouse })) as { data: unknown[] };
    return { served: served.data, raw: raw.data };
  };
  /** Its refreshes stop and its warehouse goes: the next test's checks are its own. */
  const close = async () => {
    await server.store.db.deleteFrom('rollup_schedule').where('deployment_id', '=', deploymentId).execute();
    await source.close();
  };
  return { source, partitions, versions, checkAfter, answers, close };
}

/** The name of the partition holding `day` (YYYY-MM-DD): monthly, `events_daily<YYYYMM>`. */
const monthOf = (day: string) => `events_daily${day.slice(0, 4)}${day.slice(5, 7)}`;

describeOnStores(
  'pre-aggregations: refresh_key.sql per partition',
  (server) => {
    const opened: Array<{ close(): Promise<void> }> = [];
    afterEach(async () => {
      for (const rollup of opened.splice(0)) await rollup.close();
    });

    describe.each(sourceKinds)('on a %s source', (kind) => {
      it('a row changed in one month rebuilds that month’s partition only', async () => {
        const rollup = await builtRollup(server(), kind, (table) => perPartitionKey(table));
        opened.push(rollup);
        const built = await rollup.versions();
        const names = Object.keys(built);
        expect(names.length).toBeGreaterThanOrEqual(3);
        // Past the 10-second throttle every partition's key is read; none moved, so none is rebuilt.
        expect(await rollup.checkAfter(11_000)).toEqual({ checked: names, built: [], failed: [] });
        expect(await rollup.versions()).toEqual(built);

        const changed = monthOf(dayBefore(45));
        expect(names.slice(0, -1)).toContain(changed);
        await rollup.source.change(`${dayBefore(45)} 05:00:00`);
        expect(await rollup.checkAfter(22_000)).toEqual({ checked: names, built: [changed], failed: [] });
        const after = await rollup.versions();
        for (const name of names) {
          if (name === changed) expect(after[name], name).not.toBe(built[name]);
          else expect(after[name], name).toBe(built[name]);
        }
        const { served, raw } = await rollup.answers();
        expect(served).toEqual(raw);
      });

      it('incremental with update_window reads the keys of recent partitions only: an old month that changed is kept', async () => {
        const rollup = await builtRollup(server(), kind, (table) => perPartitionKey(table, ', incremental: true, update_window: 7 day'));
        opened.push(rollup);
        const built = await rollup.versions();
        const at = Date.now() + 11_000;
        const windowStart = new Date(at - 7 * 86_400_000).toISOString().slice(0, 23);
        const partitions = await rollup.partitions();
        const recent = partitions.filter((p) => p.rangeEnd > windowStart).map((p) => p.name);
        const old = monthOf(dayBefore(45));
        expect(recent).not.toContain(old);
        expect(recent).toContain(monthOf(dayBefore(1)));

        await rollup.source.change(`${dayBefore(45)} 05:00:00`);
        await rollup.source.change(`${dayBefore(1)} 05:00:00`);
        const outcome = await rollup.checkAfter(11_000);
        expect(outcome).toEqual({ checked: recent, built: [monthOf(dayBefore(1))], failed: [] });
        const after = await rollup.versions();
        for (const name of Object.keys(built)) {
          if (name === monthOf(dayBefore(1))) expect(after[name], name).not.toBe(built[name]);
          else expect(after[name], name).toBe(built[name]);
        }
      });
    });
  },
  dataDirOverride(),
);
