import { DuckDBWarehouse, rollupDefinitions, type AvailableRollup, type DataModel, type RollupDefinition } from '@plinth/semantic';
import type { JobContext } from '../../jobs/kind.js';
import type { Executor } from '../../store/executor.js';
import type { Job } from '../../store/jobs.js';
import { transaction } from '../../store/transaction.js';
import type { BuiltBuild, ServingGate } from '../builds/public.js';
import type { ServiceContext } from '../module.js';
import { checkIntervalMs } from './refresh-key.js';
import { availableRollups, bytesOf, Manifest } from './manifest.js';
import { MemoryTables } from './memory-tables.js';
import { refreshDedupeKey, refreshJob, type RefreshPayload } from './jobs.js';
import { refreshRollup } from './refresh.js';
import { removeFiles } from './storage.js';
import { dropTables } from './warehouse-tables.js';

/** A replaced partition file (or warehouse table) stays this long: a query that read the manifest just before the switch still finds it. */
export const RETIRED_FILE_GRACE_MS = 10 * 60_000;

/**
 * Pre-aggregations of each build: built into Parquet files under the data directory by the
 * `rollups` queue, listed in the manifest (the store), and offered to the data API's planner.
 */
export class PreAggregationService implements ServingGate {
  readonly manifest: Manifest;
  private opened: Promise<DuckDBWarehouse> | undefined;
  private readonly memory = new MemoryTables(() => this.duck(), RETIRED_FILE_GRACE_MS);

  constructor(readonly ctx: ServiceContext) {
    this.manifest = new Manifest(ctx.db);
  }

  /** This process's DuckDB for rollups: in memory, reading and writing nothing but Parquet files under the data directory. */
  duck(): Promise<DuckDBWarehouse> {
    return (this.opened ??= DuckDBWarehouse.open());
  }

  /** The rollups of a compiled model; none when the engine cannot read them (the build then serves as before). */
  definitionsOf(model: DataModel): RollupDefinition[] {
    return rollupDefinitions(model);
  }

  async prepareBuild(build: BuiltBuild): Promise<((db: Executor) => Promise<void>) | undefined> {
    const model = await this.ctx.services.dataApi.modelOfBuild(build.accountId, build.buildId, build.commitId);
    const definitions = this.definitionsOf(model);
    // Without rollups the build serves at once: what older builds of its branch built is over.
    if (!definitions.length) return (db) => retireOlder(db, build.deploymentId, build.branchName, build.buildId);
    return async (db) => {
      const now = new Date();
      await db
        .insertInto('rollup_build')
        .values({
          build_id: build.buildId,
          account_id: build.accountId,
          deployment_id: build.deploymentId,
          branch_name: build.branchName,
          state: 'building',
          rollups: definitions.length,
        })
        .onConflict((oc) => oc.column('build_id').doNothing())
        .execute();
      for (const definition of definitions) {
        const checkMs = checkIntervalMs(definition);
        await db
          .insertInto('rollup_schedule')
          .values({
            build_id: build.buildId,
            rollup_id: definition.id,
            account_id: build.accountId,
            deployment_id: build.deploymentId,
            next_check_at: new Date(now.getTime() + checkMs),
            check_ms: checkMs,
          })
          .onConflict((oc) => oc.columns(['build_id', 'rollup_id']).doNothing())
          .execute();
        await refreshJob.enqueue(
          db,
          { deploymentId: build.deploymentId, buildId: build.buildId, rollupId: definition.id },
          { accountId: build.accountId, dedupeKey: refreshDedupeKey(build.buildId, definition.id) },
        );
      }
    };
  }

  async held(db: Executor, buildIds: readonly number[]): Promise<Set<number>> {
    if (!buildIds.length) return new Set();
    const rows = await db
      .selectFrom('rollup_build')
      .select('build_id')
      .where('build_id', 'in', buildIds)
      .where('state', '=', 'building')
      .execute();
    return new Set(rows.map((row) => Number(row.build_id)));
  }

  /** The rollups a query of the build may be answered from, with the files and versions the manifest names now. */
  async available(buildId: number, model: DataModel): Promise<AvailableRollup[]> {
    const rows = await this.manifest.partitions(buildId);
    if (!rows.length) return [];
    const definitions = new Map(this.definitionsOf(model).map((d) => [d.id, d]));
    return availableRollups(this.ctx.config.dataDir, rows, (id) => definitions.get(id)?.columns);
  }

  /**
   * The rollups `available` offered, as a query runs them now: from this process's in-memory copy
   * of the very files they name once it is made (see MemoryTables), else from the files.
   */
  forQuery(rollups: readonly AvailableRollup[]): readonly AvailableRollup[] {
    return this.memory.serve(rollups, bytesOf);
  }

  /** Resolves once the in-memory copies forQuery started are made. */
  copiesMade(): Promise<void> {
    return this.memory.settled();
  }

  /** The `pre-aggregations.refresh` job: one rollup of one build, claimed so no other process refreshes it at once. */
  async runRefresh(job: Job<RefreshPayload>, context: JobContext): Promise<unknown> {
    const { deploymentId, buildId, rollupId, force } = job.payload;
    const accountId = job.accountId!;
    const build = await this.ctx.services.builds.byId(accountId, buildId);
    if (!build || build.status !== 'built') return { skipped: `build ${buildId} is not built` };
    const model = await this.ctx.services.dataApi.modelOfBuild(accountId, buildId, build.commitId);
    const definition = this.definitionsOf(model).find((d) => d.id === rollupId);
    if (!definition) return { skipped: `build ${buildId} has no pre-aggregation ${rollupId}` };
    if (!(await this.claim(buildId, rollupId, context)))
      throw new Error(`Pre-aggregation ${rollupId} is being refreshed by another process`);
    let failure: string | undefined;
    try {
      const duck = await this.duck();
      const outcome = await this.ctx.services.dataApi.withWarehouse(accountId, deploymentId, (warehouse) =>
        refreshRollup({
          accountId,
          deploymentId,
          buildId,
          model,
          definition,
          warehouse,
          duck,
          dataDir: this.ctx.config.dataDir,
          manifest: this.manifest,
          writeWarehouse: (work) => this.ctx.services.dataApi.writeWarehouse(accountId, deploymentId, work),
          now: context.now,
          beat: context.heartbeat,
          ...(force ? { force: force.length ? force : true } : {}),
        }),
      );
      const first = outcome.failed[0];
      if (first)
        failure = `${outcome.failed.length} of ${outcome.built.length + outcome.failed.length} partitions failed; ${first.partition}: ${first.error}`;
      return outcome;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      await this.release(buildId, rollupId, context, failure);
      await this.settle(buildId, failure);
      // Refreshes come at every rollup's check interval: often enough to clear what they replaced.
      await this.sweepFiles(context.now());
      await this.sweepTables(context.now());
      if (failure !== undefined) throw new Error(failure); // eslint-disable-line no-unsafe-finally -- a failed partition fails the attempt
    }
  }

  private async claim(buildId: number, rollupId: string, context: JobContext): Promise<boolean> {
    const now = new Date(context.now());
    const claimed = await this.ctx.db
      .updateTable('rollup_schedule')
      .set({ claimed_by: context.workerId, claimed_until: new Date(now.getTime() + 10 * 60_000) })
      .where('build_id', '=', buildId)
      .where('rollup_id', '=', rollupId)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now), eb('claimed_by', '=', context.workerId)]))
      .returning('build_id')
      .executeTakeFirst();
    return claimed !== undefined;
  }

  private async release(buildId: number, rollupId: string, context: JobContext, failure: string | undefined): Promise<void> {
    await this.ctx.db
      .updateTable('rollup_schedule')
      .set({
        claimed_by: null,
        claimed_until: null,
        last_error: failure ?? null,
        ...(failure === undefined ? { refreshed_at: new Date(context.now()) } : {}),
      })
      .where('build_id', '=', buildId)
      .where('rollup_id', '=', rollupId)
      .where('claimed_by', '=', context.workerId)
      .execute();
  }

  /**
   * A build whose rollups are all built is ready. One whose rollup failed serves too, from the
   * warehouse where a rollup is missing, rather than keeping an older model serving: the refresh is
   * retried and later checks rebuild what is missing. Either way the builds of its branch before
   * it stop refreshing and their files are retired.
   */
  private async settle(buildId: number, failure: string | undefined): Promise<void> {
    await transaction(this.ctx.db, async (db) => {
      const build = await db.selectFrom('rollup_build').selectAll().where('build_id', '=', buildId).forUpdate().executeTakeFirst();
      if (!build || build.state === 'ready') return;
      const done = await db
        .selectFrom('rollup_schedule')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('build_id', '=', buildId)
        .where('refreshed_at', 'is not', null)
        .where('last_error', 'is', null)
        .executeTakeFirstOrThrow();
      const ready = Number(done.n) >= build.rollups;
      if (!ready && failure === undefined) return;
      await db
        .updateTable('rollup_build')
        .set({ state: ready ? 'ready' : 'failed', error: ready ? null : failure!, updated_at: new Date() })
        .where('build_id', '=', buildId)
        .execute();
      await retireOlder(db, build.deployment_id, build.branch_name, buildId);
    });
  }

  /** Deletes the files of versions replaced more than the grace period ago. */
  async sweepFiles(now: number): Promise<{ deleted: number }> {
    const due = await this.ctx.db
      .selectFrom('rollup_retired_file')
      .select(['id', 'file'])
      .where('retired_at', '<', new Date(now - RETIRED_FILE_GRACE_MS))
      .limit(1000)
      .execute();
    if (!due.length) return { deleted: 0 };
    await removeFiles(
      this.ctx.config.dataDir,
      due.map((row) => row.file),
    );
    await this.ctx.db
      .deleteFrom('rollup_retired_file')
      .where(
        'id',
        'in',
        due.map((row) => row.id),
      )
      .execute();
    return { deleted: due.length };
  }

  /**
   * Drops the warehouse tables of versions replaced more than the grace period ago, one write per
   * deployment; a warehouse that cannot be written now keeps its rows for the next sweep.
   */
  async sweepTables(now: number): Promise<{ dropped: number }> {
    const due = await this.ctx.db
      .selectFrom('rollup_retired_table')
      .selectAll()
      .where('retired_at', '<', new Date(now - RETIRED_FILE_GRACE_MS))
      .orderBy('id')
      .limit(1000)
      .execute();
    const byDeployment = new Map<number, typeof due>();
    for (const row of due) byDeployment.set(row.deployment_id, [...(byDeployment.get(row.deployment_id) ?? []), row]);
    let dropped = 0;
    for (const [deploymentId, rows] of byDeployment) {
      try {
        const tables = rows.map((row) => row.warehouse_table);
        await this.ctx.services.dataApi.writeWarehouse(rows[0]!.account_id, deploymentId, (warehouse) => dropTables(warehouse, tables));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        process.stderr.write(`plinth-server: deployment ${deploymentId}: replaced pre-aggregation tables are not dropped yet: ${reason}\n`);
        continue;
      }
      await this.ctx.db
        .deleteFrom('rollup_retired_table')
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .execute();
      dropped += rows.length;
    }
    return { dropped };
  }

  async close(): Promise<void> {
    // Copies being made finish first: their DuckDB is not closed under them.
    await this.memory.settled();
    this.memory.clear();
    const opened = this.opened;
    this.opened = undefined;
    await (await opened?.catch(() => undefined))?.close();
  }
}

/** Stops refreshing the rollups of a branch's builds before `buildId`, and retires their files and tables (gone after the grace period). */
async function retireOlder(db: Executor, deploymentId: number, branchName: string, buildId: number): Promise<void> {
  const older = db
    .selectFrom('rollup_build')
    .select('build_id')
    .where('deployment_id', '=', deploymentId)
    .where('branch_name', '=', branchName)
    .where('build_id', '<', buildId);
  await db.deleteFrom('rollup_schedule').where('build_id', 'in', older).execute();
  const gone = await db
    .deleteFrom('rollup_partition')
    .where('build_id', 'in', older)
    .returning(['file', 'warehouse_table', 'account_id', 'deployment_id'])
    .execute();
  const now = new Date();
  const retired = gone.flatMap((row) => (row.file ? [{ file: row.file, retired_at: now }] : []));
  if (retired.length) await db.insertInto('rollup_retired_file').values(retired).execute();
  const tables = gone.flatMap((row) =>
    row.warehouse_table
      ? [{ account_id: row.account_id, deployment_id: row.deployment_id, warehouse_table: row.warehouse_table, retired_at: now }]
      : [],
  );
  if (tables.length) await db.insertInto('rollup_retired_table').values(tables).execute();
}
