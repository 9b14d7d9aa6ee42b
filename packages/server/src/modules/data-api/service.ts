import {
  fanOut,
  loadRequest,
  planFannedOut,
  type AvailableRollup,
  QueryError,
  type Caller,
  type DataModel,
  type LoadResponse,
  type MultiLoadResponse,
  streamLoad,
  type DataRows,
  type Warehouse,
  WarehouseUnavailableError,
} from '@plinth/semantic';
import { ApiError, badRequest, forbidden } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { AuthenticatedContext } from '../../pipeline/context.js';
import { DEFAULT_BRANCH } from '../data-model/public.js';
import type { ServiceContext } from '../module.js';
import { callerOf, callerOfUser, INVALID_TOKEN } from './caller.js';
import { CONTINUE_WAIT, createExecutor, type QueryExecutor } from './inflight.js';
import { ServingLookups } from './invalidation.js';
import { MetaCache } from './meta-cache.js';
import { ModelCache } from './models.js';
import { assertReaches, type ServedBranch } from './reach.js';
import { dryRunOf, sqlOf } from './plans.js';
import { hasRefreshEvery, refreshSlots } from './refresh-cap.js';
import { assertWithinBounds, cacheControls, capLimit, renewsCache, stableJson, type CacheMode } from './query-input.js';
import { Warehouses } from './warehouses.js';

/** Which deployment, and which of its branches (the deploy branch when none is named), a request reads. */
export interface DataTarget {
  deploymentId: number;
  branch?: string;
}

export interface LoadOptions {
  /** Answer in the multi shape (Cube's `queryType=multi`). */
  queryType?: 'multi';
  /** Cube's cache mode for the request: `must-revalidate` and `no-cache` read the data again. */
  cache?: CacheMode;
  /**
   * Told when the answer is the result cache's entry for a plain (not renewing) query, so whoever
   * sends it may give it again while `isCurrent` holds (the pipeline's response cache).
   */
  whenCached?: (cached: CachedResult) => void;
}

/** A load's answer as the result cache holds it. */
export interface CachedResult {
  answer: unknown;
  /** Whether the build it was served from is still served and the result cache still holds this very answer. */
  isCurrent: () => boolean;
}

/** What a data API request is served from: the branch's latest successful build, compiled. */
export interface Served {
  buildId: number;
  model: DataModel;
  warehouse: Warehouse;
  caller: Caller;
  /** The longest a query may run on the warehouse (`CUBEJS_DB_QUERY_TIMEOUT`); none for the embedded DuckDB. */
  timeoutMs?: number;
  /** The serving lookup the build was found by; while it stays, the build is still the one served (see stillServing). */
  servedBy?: ServedBy;
  /** The build's rollups the planner may answer from, as the manifest lists them now. */
  rollups?: readonly AvailableRollup[];
}

interface ServedBy {
  accountId: number;
  key: string;
  value: unknown;
}

export type ContinueWait = { error: 'Continue wait' };

/** Cube's data API over each deployment's built data model. */
export class DataApiService {
  readonly models = new ModelCache();
  private readonly metas = new MetaCache();
  readonly warehouses: Warehouses;
  readonly executor: QueryExecutor;
  /** Builds, branches and warehouse variables as serving last read them; kept fresh by DATA_API_SERVING_CACHE. */
  readonly serving = new ServingLookups();

  constructor(readonly ctx: ServiceContext) {
    this.warehouses = new Warehouses(ctx.config.dataDir, ctx.config.warehouseConnectTimeoutMs);
    this.executor = createExecutor(ctx.config);
  }

  /**
   * The build a request reads: the deploy branch's, or (`branch` given, the dev-mode and staging
   * URLs) a dev branch's or an enabled staging branch's, each only for a token minted for it
   * (reach.ts).
   */
  private async served(context: AuthenticatedContext, target: DataTarget): Promise<Served> {
    const { deploymentId } = target;
    const accountId = context.tenant.id;
    const { buildId, model, caller, servedBy } = await this.servedModel(context, target);
    const [{ warehouse, timeoutMs }, rollups] = await Promise.all([
      this.openWarehouse(accountId, deploymentId),
      this.serving.through(accountId, `rollups:${buildId}`, () => this.ctx.services.preAggregations.available(buildId, model)),
    ]);
    return { buildId, model, warehouse, caller, servedBy, rollups, ...(timeoutMs === undefined ? {} : { timeoutMs }) };
  }

  private async openWarehouse(accountId: number, deploymentId: number): Promise<{ warehouse: Warehouse; timeoutMs?: number }> {
    const config = await this.serving.through(accountId, `warehouse:${deploymentId}`, () =>
      this.ctx.services.deploymentVariables.warehouseConfig(accountId, deploymentId),
    );
    const warehouse = await this.warehouses.get(accountId, deploymentId, config).catch((error: Error) => {
      if (error instanceof ApiError) throw error;
      // Its detail names the server's files and processes: the log has it, the caller gets this.
      if (error instanceof WarehouseUnavailableError) {
        throw badRequest(`The warehouse of deployment ${deploymentId} is busy or cannot be opened; try again`);
      }
      throw badRequest(`The warehouse of deployment ${deploymentId} cannot be opened: ${error.message}`);
    });
    return { warehouse, ...(config.type === 'postgres' ? { timeoutMs: config.statementTimeoutMs } : {}) };
  }

  /** A deployment's warehouse, for work that acts for no caller (building pre-aggregations). */
  async warehouseOf(accountId: number, deploymentId: number): Promise<Warehouse> {
    return (await this.openWarehouse(accountId, deploymentId)).warehouse;
  }

  /**
   * Runs `work` on the deployment's warehouse: the pooled one for PostgreSQL, and for an embedded
   * DuckDB file one opened for the work alone (read-only) and closed after it, so building in the
   * background never leaves the file held by this process.
   */
  async withWarehouse<T>(accountId: number, deploymentId: number, work: (warehouse: Warehouse) => Promise<T>): Promise<T> {
    const config = await this.ctx.services.deploymentVariables.warehouseConfig(accountId, deploymentId);
    if (config.type === 'postgres') return work(await this.warehouseOf(accountId, deploymentId));
    const warehouse = await this.warehouses.openUnkept(accountId, deploymentId, config);
    try {
      return await work(warehouse);
    } finally {
      await warehouse.close();
    }
  }

  /**
   * Runs `work` on the deployment's warehouse able to write (pre-aggregations kept there): the
   * pooled PostgreSQL warehouse, or a copy of the DuckDB file renamed over it once `work` is done,
   * which readers in every process see from their next query (Warehouses.write).
   */
  async writeWarehouse<T>(accountId: number, deploymentId: number, work: (warehouse: Warehouse) => Promise<T>): Promise<T> {
    const config = await this.ctx.services.deploymentVariables.warehouseConfig(accountId, deploymentId);
    if (config.type === 'postgres') return work(await this.warehouseOf(accountId, deploymentId));
    let result: { value: T } | undefined;
    await this.warehouses.write(accountId, deploymentId, async (warehouse) => (result = { value: await work(warehouse) }), config);
    return result!.value;
  }

  /** A build's compiled model, kept as serving keeps it (pre-aggregations read its rollups). */
  modelOfBuild(accountId: number, buildId: number, commitId: number): Promise<DataModel> {
    return this.models.get(buildId, () => this.ctx.services.dataModel.filesAt(accountId, commitId));
  }

  /** As served, without opening the warehouse: meta reads only the model. */
  private async servedModel(context: AuthenticatedContext, { deploymentId, branch }: DataTarget): Promise<Omit<Served, 'warehouse'>> {
    const { principal } = context;
    const accountId = context.tenant.id;
    if (principal.accountId !== accountId) throw forbidden(INVALID_TOKEN);
    const caller = await this.callerOf(principal, deploymentId);
    const name = branch ?? DEFAULT_BRANCH;
    await assertReaches(principal, name, () => this.branchRow(accountId, deploymentId, name));
    const buildKey = `build:${deploymentId}:${name}`;
    const latest = await this.serving.through(accountId, buildKey, () =>
      this.ctx.services.builds.latestBuilt(accountId, deploymentId, name),
    );
    if (!latest) throw badRequest(`No successful build of branch ${name} yet`);
    const model = await this.models
      .get(latest.buildId, () => this.ctx.services.dataModel.filesAt(accountId, latest.commitId))
      .catch((error: Error) => {
        throw badRequest(error.message);
      });
    return { buildId: latest.buildId, model, caller, servedBy: { accountId, key: buildKey, value: latest } };
  }

  /**
   * Who asks, as the model's access policies see them: a token's security context (and an embed
   * token's groups and attributes); an internal user (a report's refresh, getMetadata, the chat)
   * with their groups and attribute values, as in an internal user's embed session. For an
   * internal user the calling operation has checked its own permission.
   */
  private callerOf(principal: Principal, deploymentId: number): Caller | Promise<Caller> {
    if (principal.kind === 'apiKey' || principal.kind === 'accessToken') {
      return callerOfUser(this.ctx.services, principal.accountId, principal.userId);
    }
    return callerOf(principal, deploymentId);
  }

  /** The compiled model of the build a context reads, with no policy applied: for checks of what the model defines. */
  async modelOf(context: AuthenticatedContext, target: DataTarget): Promise<DataModel> {
    return (await this.servedModel(context, target)).model;
  }

  /** A branch's row as serving reads it; undefined for none of that name in the deployment. */
  private async branchRow(accountId: number, deploymentId: number, name: string): Promise<ServedBranch | undefined> {
    return this.serving
      .through(accountId, `branch:${deploymentId}:${name}`, async () => {
        const { id, kind, always_active, is_default } = await this.ctx.services.dataModel.branch(accountId, deploymentId, name);
        return { id, kind, always_active, is_default };
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.code === 'not_found') return undefined;
        throw error;
      });
  }

  /**
   * Whether what `servedBy` was read from is still what serving reads: the same remembered object.
   * Any change of the account's builds, branches, variables or deployments (in any process) or the
   * cache's TTL forgets the account's lookups at once, so the next read is another object.
   */
  private stillServing(servedBy: ServedBy): boolean {
    return this.serving.cache.get(servedBy.accountId, servedBy.key) === servedBy.value;
  }

  /**
   * `/v1/load`, for whoever asks (the route, a report's refresh, the SQL API): a query or an array,
   * in the single or (queryType multi) the multi shape, as the context's principal may see it.
   * Identical queries share one execution and a cached result; past the continue-wait timeout the
   * answer is `Continue wait` while the query runs on. `renewQuery: true` (or the cache modes
   * `must-revalidate` and `no-cache`, in a query or as the request's `cache`) runs the query again
   * instead of serving the cached answer, under the rules of RunOptions.renew.
   */
  async load(context: AuthenticatedContext, target: DataTarget, request: unknown, options: LoadOptions = {}): Promise<unknown> {
    const { queryType, cache, whenCached } = options;
    const served = await this.served(context, target);
    let capped: unknown;
    let renew: boolean;
    try {
      assertWithinBounds(request);
      const controls = cacheControls(request);
      renew = controls.renew || renewsCache(cache);
      capped = capLimit(controls.query, this.ctx.config.dataApiMaxLimit);
    } catch (error) {
      return toBadRequest(error);
    }
    const preAggregations = this.ctx.services.preAggregations;
    const offered = served.rollups?.length ? preAggregations.forQuery(served.rollups) : undefined;
    // Planned here (the plans are kept, so the load below finds them) to learn which cubes the
    // warehouse reads: each one's `refresh_key.every` ends a cached answer's life, as Cube's
    // refresh keys do. A refreshed partition has a new version, so its answers are never the
    // cache's old ones either.
    const now = new Date();
    let slots: string[] | null = null;
    // A model no cube of which has an every needs no plans for the key: the hot path stays a lookup.
    if (hasRefreshEvery(served.model)) {
      try {
        const plans = planFannedOut(served.model, fanOut(capped, now), {
          dialect: served.warehouse.dialect,
          caller: served.caller,
          now,
          ...(offered ? { rollups: offered } : {}),
        });
        slots = refreshSlots(served.model, plans, now.getTime());
      } catch (error) {
        return toBadRequest(error);
      }
    }
    const versions = (served.rollups ?? []).map((rollup) => [rollup.id, rollup.versions]);
    const key = stableJson([served.buildId, capped, queryType ?? null, served.caller, versions, slots]);
    const rollups = offered ? { rollups: offered, rollupStore: await preAggregations.duck() } : {};
    const answer = await this.executor
      .run(
        key,
        async () =>
          withRefreshTime(
            await loadRequest(served.model, capped, {
              warehouse: served.warehouse,
              caller: served.caller,
              queryType,
              timeoutMs: served.timeoutMs,
              now,
              ...rollups,
            }),
          ),
        { renew },
      )
      .catch(toBadRequest);
    if (answer === CONTINUE_WAIT) return { error: 'Continue wait' } satisfies ContinueWait;
    if (whenCached && !renew && served.servedBy) this.offerCached(key, answer, served.servedBy, whenCached);
    return answer;
  }

  /**
   * One query's rows streamed from the warehouse in batches (the SQL API's pushed-down statements):
   * planned as `load` plans it for the context's caller, policies and rollups included, but read
   * past the result cache and without the data API's row limit, since a stream holds one batch at
   * a time (streamLoad). Settles once the query is planned; the warehouse's refusals while reading
   * are the caller's 400, as `load`'s are.
   */
  async stream(
    context: AuthenticatedContext,
    target: DataTarget,
    query: Readonly<Record<string, unknown>>,
    options: { signal?: AbortSignal; batchRows?: number } = {},
  ): Promise<AsyncIterable<DataRows>> {
    const served = await this.served(context, target);
    const preAggregations = this.ctx.services.preAggregations;
    const rollups = served.rollups?.length
      ? { rollups: preAggregations.forQuery(served.rollups), rollupStore: await preAggregations.duck() }
      : {};
    let rows: AsyncIterable<DataRows>;
    try {
      assertWithinBounds(query);
      ({ rows } = streamLoad(served.model, query, {
        warehouse: served.warehouse,
        caller: served.caller,
        timeoutMs: served.timeoutMs,
        ...rollups,
        ...options,
      }));
    } catch (error) {
      return toBadRequest(error);
    }
    return (async function* () {
      try {
        yield* rows;
      } catch (error) {
        if (options.signal?.aborted) throw error;
        toBadRequest(error);
      }
    })();
  }

  /** Tells `whenCached` of an answer the result cache of this process holds (never with Redis, whose results live elsewhere). */
  private offerCached(key: string, answer: unknown, servedBy: ServedBy, whenCached: (cached: CachedResult) => void): void {
    if (this.executor.peek?.(key) !== answer) return;
    whenCached({ answer, isCurrent: () => this.stillServing(servedBy) && this.executor.peek?.(key) === answer });
  }

  /** `/v1/sql`: the SQL and parameters a load would run. */
  async sql(context: AuthenticatedContext, target: DataTarget, request: unknown) {
    const served = await this.served(context, target);
    try {
      assertWithinBounds(request);
      return sqlOf(served, capLimit(request, this.ctx.config.dataApiMaxLimit));
    } catch (error) {
      return toBadRequest(error);
    }
  }

  /** `/v1/dry-run`: the normalized queries a load would run. */
  async dryRun(context: AuthenticatedContext, target: DataTarget, request: unknown) {
    const served = await this.served(context, target);
    try {
      assertWithinBounds(request);
      return dryRunOf(served, capLimit(request, this.ctx.config.dataApiMaxLimit));
    } catch (error) {
      return toBadRequest(error);
    }
  }

  /** The most rows one query may ask for: the SQL API's post-processing reads pushed-down results up to it. */
  get maxLimit(): number {
    return this.ctx.config.dataApiMaxLimit;
  }

  /** `/v1/meta`: the cubes and views this caller may query; only the views with `onlyViews`, as Cube's `?onlyViews=true`. */
  async meta(context: AuthenticatedContext, target: DataTarget, { onlyViews = false } = {}) {
    const served = await this.servedModel(context, target);
    const answer = this.metas.of(served.model, served.caller);
    return onlyViews ? { ...answer, cubes: answer.cubes.filter((cube) => cube.type === 'view') } : answer;
  }

  async close(): Promise<void> {
    await this.executor.close();
    this.models.close();
    await this.warehouses.close();
  }
}

/**
 * Stamps `lastRefreshTime` (when the warehouse answered) on the answer, and on each of the multi
 * shape's results, before it is cached: a cached answer keeps the time its data was read.
 */
function withRefreshTime(answer: LoadResponse | MultiLoadResponse) {
  const lastRefreshTime = new Date().toISOString();
  if ('results' in answer) return { ...answer, results: answer.results.map((result) => ({ ...result, lastRefreshTime })) };
  return { ...answer, lastRefreshTime };
}

/**
 * The engine's QueryError and the warehouse's own refusals (a bad value, an out-of-range number, a
 * cast that fails, an unreachable warehouse) are the caller's query meeting the data: 400 with the
 * message, as Cube answers, never a 500.
 */
export function toBadRequest(error: unknown): never {
  if (error instanceof ApiError) throw error;
  if (error instanceof QueryError) throw badRequest(error.message);
  throw badRequest(error instanceof Error ? error.message : String(error));
}
