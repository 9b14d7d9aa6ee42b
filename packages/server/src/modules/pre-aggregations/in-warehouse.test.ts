import { randomBytes } from 'node:crypto';
import { loadRequest, PostgresWarehouse, type AvailableRollup } from '@plinth/semantic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { adminOf, commitFiles, newDeployment } from '../builds/test-fixtures.js';
import { asToken, tokenOf } from '../data-api/test-fixtures.js';
import { RETIRED_FILE_GRACE_MS } from './service.js';
import { eventSource, eventsModel, eventsQuery, requestBuild, sourceKinds, type EventSource } from './test-fixtures.js';
import { dropTables, quotedTable } from './warehouse-tables.js';

type Answer = { data: Array<Record<string, unknown>>; usedPreAggregations?: Record<string, { targetTableName: string }> };
type Listed = {
  buildId: number;
  state: string;
  error: string | null;
  items: Array<{
    storedIn: string;
    rows: number;
    lastError: string | null;
    partitions: Array<{ name: string; version: string; table: string | null; rows: number; bytes: number | null }>;
  }>;
};

/** The events model with its rollup kept in the source warehouse, and a row policy on `kind` for callers that name one. */
function inWarehouseModel(table: string, measures = ''): Record<string, string> {
  const files = eventsModel(table, measures);
  const policy = `    access_policy:
      - group: "*"
        conditions: [{ if: "{ securityContext.kind }" }]
        row_level:
          filters: [{ member: kind, operator: equals, values: ["{ securityContext.kind }"] }]
      - group: "*"
        conditions: [{ if: "{ not securityContext.kind }" }]
`;
  const yaml = files['model/events.yml']!.replace('    pre_aggregations:\n', `${policy}    pre_aggregations:\n`);
  return { 'model/events.yml': `${yaml}        external: false\n` };
}

describeOnStores('pre-aggregations kept in the source warehouse (external: false)', (server) => {
  describe.each(sourceKinds)('on a %s source', (kind) => {
    let account: TestAccount;
    let deploymentId = 0;
    let source: EventSource;
    const target = () => ({ deploymentId });
    const load = async (query: unknown, securityContext: Record<string, unknown> = {}) =>
      (await server().services.dataApi.load(asToken(tokenOf(account.id, deploymentId, securityContext))[0], target(), query)) as Answer;
    const raw = async (query: unknown) => {
      const model = await server().services.dataApi.modelOf(asToken(tokenOf(account.id, deploymentId))[0], target());
      const warehouse = await server().services.dataApi.warehouseOf(account.id, deploymentId);
      return (await loadRequest(model, query, { warehouse })) as Answer;
    };
    const list = async (): Promise<Listed> => {
      const response = await account.request({
        method: 'GET',
        url: `/api/v1/deployments/${deploymentId}/pre-aggregations`,
        as: account.admin,
      });
      expect(response.status, response.text).toBe(200);
      return response.body as Listed;
    };
    const tables = async () => (await list()).items[0]!.partitions.map((p) => p.table!);
    /** Whether the source warehouse has the table now, as a reader that reads it next would find it. */
    const exists = (table: string) =>
      server().services.dataApi.withWarehouse(account.id, deploymentId, (warehouse) =>
        warehouse.query(`SELECT 1 FROM ${quotedTable(table)} LIMIT 1`, []).then(
          () => true,
          () => false,
        ),
      );
    const offered = async (): Promise<AvailableRollup> => {
      const model = await server().services.dataApi.modelOf(asToken(tokenOf(account.id, deploymentId))[0], target());
      return (await server().services.preAggregations.available((await list()).buildId, model))[0]!;
    };

    beforeAll(async () => {
      account = await server().newAccount();
      deploymentId = await newDeployment(account);
      source = await eventSource(server().services, adminOf(account), deploymentId, kind);
      await commitFiles(server().services, adminOf(account), deploymentId, inWarehouseModel(source.table));
      await server().jobs.runUntilIdle();
    });
    afterAll(async () => {
      // Whatever this file built in the shared test database goes with it.
      await server().services.preAggregations.sweepTables(Date.now() + 2 * RETIRED_FILE_GRACE_MS);
      const current = await tables().catch(() => []);
      await server()
        .services.dataApi.writeWarehouse(account.id, deploymentId, (warehouse) => dropTables(warehouse, current))
        .catch(() => undefined);
      await source?.close();
    });

    it('each partition is a table of the warehouse; a matching load reads it with the warehouse’s answer; list and preview say where it lives', async () => {
      const listed = await list();
      expect(listed).toMatchObject({ state: 'ready', error: null });
      const [daily] = listed.items;
      expect(daily).toMatchObject({ storedIn: 'warehouse', lastError: null });
      expect(daily!.partitions.length).toBeGreaterThanOrEqual(3);
      for (const partition of daily!.partitions) {
        expect(partition.table).toBe(`prod_pre_aggregations.${partition.name}_${partition.version}`);
        expect(await exists(partition.table!), partition.table!).toBe(true);
        expect(partition.rows).toBeGreaterThan(0);
        if (kind === 'postgres') expect(partition.bytes).toBeGreaterThan(0);
        else expect(partition.bytes).toBeNull();
      }
      const answer = await load(eventsQuery());
      expect(answer.usedPreAggregations).toEqual({
        'prod_pre_aggregations.events_daily': expect.objectContaining({ targetTableName: daily!.partitions[0]!.table }),
      });
      const truth = await raw(eventsQuery());
      expect(truth.usedPreAggregations).toBeUndefined();
      expect(answer.data.length).toBeGreaterThan(2);
      expect(answer.data).toEqual(truth.data);

      const sql = (await server().services.dataApi.sql(asToken(tokenOf(account.id, deploymentId))[0], target(), eventsQuery())) as {
        sql: { sql: [string, unknown[]]; external: boolean; preAggregations: unknown[] };
      };
      expect(sql.sql.external).toBe(false);
      expect(sql.sql.sql[0]).toContain(quotedTable(daily!.partitions[0]!.table!));

      const preview = await account.request({
        method: 'GET',
        url: `/api/v1/deployments/${deploymentId}/pre-aggregations/events.daily/preview?limit=5`,
        as: account.admin,
      });
      expect(preview.status, preview.text).toBe(200);
      expect(preview.body.data).toHaveLength(5);
      expect(preview.body.data[0]).toMatchObject({ events__kind: expect.stringMatching(/^[ab]$/) });
    });

    it('a caller under a row policy gets only their rows from the rollup', async () => {
      const answer = await load(eventsQuery(), { kind: 'a' });
      expect(answer.usedPreAggregations).toBeDefined();
      expect(answer.data.length).toBeGreaterThan(0);
      expect(answer.data.every((row) => row['events.kind'] === 'a')).toBe(true);
      const own = await raw({ ...eventsQuery(), filters: [{ member: 'events.kind', operator: 'equals', values: ['a'] }] });
      expect(answer.data).toEqual(own.data);
    });

    it('a rebuild switches to new tables while readers keep reading; the replaced tables go after the grace period', async () => {
      const before = await tables();
      const listedBefore = await offered();
      await source.add(`${new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)} 12:00:00`, '1000.50');
      await requestBuild(account, deploymentId);
      // Loads go on beside the rebuild: every one is answered from a rollup, none meets a missing table.
      const readers = Array.from({ length: 20 }, () => load({ ...eventsQuery(), renewQuery: true }));
      await server().jobs.runUntilIdle();
      for (const answer of await Promise.all(readers)) expect(answer.usedPreAggregations).toBeDefined();

      const after = await tables();
      for (const [i, table] of after.entries()) expect(table).not.toBe(before[i]);
      const answer = await load(eventsQuery());
      expect(answer.data).toEqual((await raw(eventsQuery())).data);
      expect(answer.usedPreAggregations!['prod_pre_aggregations.events_daily']!.targetTableName).toBe(after[0]);
      // A reader that listed the old tables just before the switch still reads them.
      const old = await server().services.dataApi.withWarehouse(account.id, deploymentId, (warehouse) =>
        warehouse.query(`SELECT count(*) AS "n" FROM ${listedBefore.from} AS "old"`, []),
      );
      expect(Number(old.rows[0]!['n'])).toBeGreaterThan(0);

      expect((await server().services.preAggregations.sweepTables(Date.now())).dropped).toBe(0);
      for (const table of before) expect(await exists(table), table).toBe(true);
      const swept = await server().services.preAggregations.sweepTables(Date.now() + RETIRED_FILE_GRACE_MS + 1000);
      expect(swept.dropped).toBeGreaterThanOrEqual(before.length);
      for (const table of before) expect(await exists(table), table).toBe(false);
      for (const table of after) expect(await exists(table), table).toBe(true);
      expect((await load({ ...eventsQuery(), renewQuery: true })).data).toEqual(answer.data);
    });
  });

  describe.skipIf(!process.env.DATABASE_URL)(
    'what a PostgreSQL source cannot keep fails the refresh, naming the pre-aggregation and why',
    () => {
      const lastError = async (account: TestAccount, deploymentId: number) => {
        await server().jobs.runUntilIdle();
        const listed = await account.request({
          method: 'GET',
          url: `/api/v1/deployments/${deploymentId}/pre-aggregations`,
          as: account.admin,
        });
        return (listed.body as Listed).items[0]!.lastError;
      };

      it('a count_distinct_approx measure: PostgreSQL has no mergeable sketch', async () => {
        const account = await server().newAccount();
        const deploymentId = await newDeployment(account);
        const source = await eventSource(server().services, adminOf(account), deploymentId, 'postgres');
        try {
          const files = inWarehouseModel(source.table, '\n      - { name: kinds, type: count_distinct_approx, sql: kind }');
          files['model/events.yml'] = files['model/events.yml']!.replace('measures: [count, amount]', 'measures: [count, amount, kinds]');
          await commitFiles(server().services, adminOf(account), deploymentId, files);
          expect(await lastError(account, deploymentId)).toContain(
            'Pre-aggregation events.daily: external: false keeps it in the postgres warehouse, which has no mergeable sketch for the count_distinct_approx measure events.kinds',
          );
        } finally {
          await source.close();
        }
      });

      it('a read-only warehouse', async () => {
        const account = await server().newAccount();
        const deploymentId = await newDeployment(account);
        const source = await eventSource(server().services, adminOf(account), deploymentId, 'postgres');
        const url = new URL(process.env.DATABASE_URL!);
        const admin = new PostgresWarehouse({ connectionString: url.toString(), max: 1 });
        const role = `plinth_reader_${randomBytes(4).toString('hex')}`;
        const schema = source.table.split('.')[0]!;
        try {
          await admin.query(`CREATE ROLE ${role} LOGIN`, []);
          await admin.query(`ALTER ROLE ${role} SET default_transaction_read_only = on`, []);
          await admin.query(`GRANT USAGE ON SCHEMA "${schema}" TO ${role}`, []);
          await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA "${schema}" TO ${role}`, []);
          const variables = [
            ['CUBEJS_DB_TYPE', 'postgres'],
            ['CUBEJS_DB_HOST', url.hostname],
            ['CUBEJS_DB_PORT', url.port || '5432'],
            ['CUBEJS_DB_NAME', decodeURIComponent(url.pathname.slice(1))],
            ['CUBEJS_DB_USER', role],
          ].map(([name, value]) => ({ name: name!, value: value! }));
          await server().services.deploymentVariables.set(account.id, deploymentId, { variables });
          await commitFiles(server().services, adminOf(account), deploymentId, inWarehouseModel(source.table));
          expect(await lastError(account, deploymentId)).toContain(
            'Pre-aggregation events.daily: external: false builds it as a table in the source warehouse, which is read-only',
          );
        } finally {
          await source.close();
          await admin.query(`DROP OWNED BY ${role}`, []).catch(() => undefined);
          await admin.query(`DROP ROLE IF EXISTS ${role}`, []);
          await admin.close();
        }
      });
    },
  );
});
