import type { RollupDefinition } from '@plinth/semantic';
import { sql } from 'kysely';
import { badRequest, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { RollupPartitionRow } from '../../store/schema.js';
import type { ServiceContext } from '../module.js';
import { REFRESH_JOB, refreshDedupeKey, refreshJob, type RefreshPayload } from './jobs.js';
import type { PreAggregationService } from './service.js';
import type { BuildPreAggregationsInput } from './schemas.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const int = (value: string | number | null) => (value === null ? null : Number(value));

/** The operations behind `plinth pre-aggregations`: what a deployment's rollups hold, building them, their jobs, their rows. */
export class PreAggregationOperations {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly service: PreAggregationService,
  ) {}

  /** The build whose rollups an operation means: the branch's newest with rollups, or the one serving. */
  private async current(principal: Principal, deploymentId: number, branchName?: string) {
    const branch = await this.ctx.services.dataModel.target(principal, deploymentId, branchName);
    const accountId = principal.accountId;
    const newest = await this.ctx.db
      .selectFrom('rollup_build')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .where('branch_name', '=', branch.name)
      .orderBy('build_id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const served = await this.ctx.services.builds.latestBuilt(accountId, deploymentId, branch.name);
    const buildId = Math.max(newest ? Number(newest.build_id) : 0, served?.buildId ?? 0);
    if (!buildId) return { buildId: null, state: null, definitions: [] as RollupDefinition[], error: null };
    const build = await this.ctx.services.builds.byId(accountId, buildId);
    const model = await this.ctx.services.dataApi.modelOfBuild(accountId, buildId, build!.commitId);
    const state = newest && Number(newest.build_id) === buildId ? newest : undefined;
    return { buildId, state: state?.state ?? null, error: state?.error ?? null, definitions: this.service.definitionsOf(model), model };
  }

  async list(principal: Principal, deploymentId: number, branch?: string) {
    const { buildId, state, error, definitions } = await this.current(principal, deploymentId, branch);
    if (buildId === null) return { buildId, state, error, items: [] };
    const partitions = await this.service.manifest.partitions(buildId);
    const schedules = await this.ctx.db.selectFrom('rollup_schedule').selectAll().where('build_id', '=', buildId).execute();
    const items = definitions.map((d) => {
      const own = partitions.filter((p) => p.rollup_id === d.id);
      const schedule = schedules.find((s) => s.rollup_id === d.id);
      const built = own.filter((p) => p.built_at !== null).map((p) => p.built_at!.getTime());
      return {
        id: d.id,
        cube: d.cube,
        name: d.name,
        tableName: d.tableName,
        type: d.type,
        external: d.external,
        storedIn: d.external ? ('rollupStore' as const) : ('warehouse' as const),
        partitionGranularity: d.partitionGranularity ?? null,
        refreshKey: {
          every: d.refreshKey.every ?? null,
          sql: d.refreshKey.hasSql,
          incremental: d.refreshKey.incremental,
          updateWindow: d.refreshKey.updateWindow ?? null,
        },
        partitionCount: own.length,
        builtPartitions: own.filter((p) => p.version !== null).length,
        rows: own.reduce((sum, p) => sum + (int(p.row_count) ?? 0), 0),
        bytes: own.reduce((sum, p) => sum + (int(p.bytes) ?? 0), 0),
        lastRefreshAt: built.length ? new Date(Math.max(...built)).toISOString() : null,
        buildTimeMs: own.reduce((sum, p) => sum + (p.build_ms ?? 0), 0),
        nextCheckAt: iso(schedule?.next_check_at ?? null),
        lastError: schedule?.last_error ?? null,
        partitions: own.map(partitionView),
      };
    });
    return { buildId, state, error, items };
  }

  /** Queues a refresh of the named rollups (every one), rebuilding the named partitions (every one) whatever their refresh key. */
  async build(principal: Principal, deploymentId: number, input: BuildPreAggregationsInput) {
    const { buildId, definitions } = await this.current(principal, deploymentId, input.branch);
    if (buildId === null) throw badRequest('The branch has no successful build yet: there are no pre-aggregations to build');
    const ids = input.preAggregations ?? definitions.map((d) => d.id);
    for (const id of ids) if (!definitions.some((d) => d.id === id)) throw notFound(`Pre-aggregation ${id} not found in build ${buildId}`);
    if (!ids.length) throw badRequest(`Build ${buildId} has no pre-aggregations`);
    const jobs = [];
    for (const rollupId of ids) {
      const payload: RefreshPayload = { deploymentId, buildId, rollupId, force: input.partitions ?? [] };
      const { id } = await refreshJob.enqueue(this.ctx.db, payload, {
        accountId: principal.accountId,
        dedupeKey: `${refreshDedupeKey(buildId, rollupId)}:build`,
      });
      jobs.push(id);
    }
    return { items: await this.jobs(principal.accountId, deploymentId, jobs) };
  }

  async status(principal: Principal, deploymentId: number) {
    if (!(await this.ctx.services.deployments.find(principal.accountId, deploymentId)))
      throw notFound(`Deployment ${deploymentId} not found`);
    return { items: await this.jobs(principal.accountId, deploymentId) };
  }

  private async jobs(accountId: number, deploymentId: number, ids?: number[]) {
    let query = this.ctx.db
      .selectFrom('job')
      .selectAll()
      .where('kind', '=', REFRESH_JOB)
      .where('account_id', '=', accountId)
      .where(sql<boolean>`payload->>'deploymentId' = ${String(deploymentId)}`);
    if (ids) query = query.where('id', 'in', ids);
    const rows = await query.orderBy('id', 'desc').limit(100).execute();
    return rows.map((row) => {
      const payload = row.payload as RefreshPayload;
      return {
        id: Number(row.id),
        preAggregation: payload.rollupId,
        buildId: payload.buildId,
        partitions: payload.force?.length ? payload.force : null,
        state: row.state,
        attempts: row.attempts,
        lastError: row.last_error ? row.last_error.split('\n')[0]! : null,
        createdAt: row.created_at.toISOString(),
        finishedAt: iso(row.finished_at),
      };
    });
  }

  /** The first rows of a rollup as stored: read from the files (or the source warehouse's tables) the manifest names. */
  async preview(principal: Principal, deploymentId: number, rollupId: string, options: { branch?: string; limit?: number }) {
    const current = await this.current(principal, deploymentId, options.branch);
    const definition = current.definitions.find((d) => d.id === rollupId);
    if (current.buildId === null || !definition) throw notFound(`Pre-aggregation ${rollupId} not found`);
    const available = current.model
      ? (await this.service.available(current.buildId, current.model)).find((r) => r.id === rollupId)
      : undefined;
    if (!available) throw badRequest(`Pre-aggregation ${rollupId} is not built yet`);
    const sql = `SELECT * FROM ${available.from} AS "rollup" LIMIT ${options.limit ?? 100}`;
    const { rows } = available.inWarehouse
      ? await this.ctx.services.dataApi.withWarehouse(principal.accountId, deploymentId, (warehouse) => warehouse.query(sql, []))
      : await (await this.service.duck()).query(sql, []);
    return {
      preAggregation: rollupId,
      columns: definition.columns.map((c) => ({ name: c.name, type: c.type, member: c.member })),
      data: rows.map((row) => ({ ...row })),
    };
  }
}

function partitionView(p: RollupPartitionRow) {
  return {
    name: p.name,
    rangeStart: p.range_start,
    rangeEnd: p.range_end,
    version: p.version,
    refreshKey: p.refresh_key,
    table: p.warehouse_table,
    rows: int(p.row_count),
    bytes: int(p.bytes),
    builtAt: iso(p.built_at),
    buildTimeMs: p.build_ms,
    lastError: p.last_error,
    errorAt: iso(p.error_at),
  };
}
