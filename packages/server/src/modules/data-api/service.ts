import {
  loadRequest,
  meta,
  QueryError,
  type Caller,
  type DataModel,
  type LoadResponse,
  type MultiLoadResponse,
  type Warehouse,
  WarehouseUnavailableError,
} from '@plinth/semantic';
import { ApiError, badRequest } from '../../http/errors.js';
import type { Principal, UserPrincipal } from '../../http/principal.js';
import { DEFAULT_BRANCH } from '../data-model/public.js';
import type { ServiceContext } from '../module.js';
import { callerOf, callerOfUser } from './caller.js';
import { CONTINUE_WAIT, createRunner, type QueryRunner } from './inflight.js';
import { ServingLookups } from './invalidation.js';
import { ModelCache } from './models.js';
import { assertReaches, type ServedBranch } from './reach.js';
import { dryRunOf, sqlOf } from './plans.js';
import { assertWithinBounds, cacheControls, capLimit, renewsCache, stableJson, type CacheMode } from './query-input.js';
import { Warehouses } from './warehouses.js';

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
}

export interface ServedBy {
  accountId: number;
  key: string;
  value: unknown;
}

export type ContinueWait = { error: 'Continue wait' };

/** Cube's data API over each deployment's built data model. */
export class DataApiService {
  readonly models = new ModelCache();
  readonly warehouses: Warehouses;
  readonly runner: QueryRunner;
  /** Builds, branches and warehouse variables as serving last read them; kept fresh by DATA_API_SERVING_CACHE. */
  readonly serving = new ServingLookups();

  constructor(readonly ctx: ServiceContext) {
    this.warehouses = new Warehouses(ctx.config.dataDir, ctx.config.warehouseConnectTimeoutMs);
    this.runner = createRunner(ctx.config);
  }

  /**
   * The build a request reads: the deploy branch's, or (`branch` given, the dev-mode and staging
   * URLs) a dev branch's or an enabled staging branch's, each only for a token minted for it
   * (reach.ts).
   */
  async serve(principal: Principal, deploymentId: number, branch?: string, asCaller?: Caller): Promise<Served> {
    const { buildId, model, caller, servedBy } = await this.serveModel(principal, deploymentId, branch, asCaller);
    const config = await this.serving.through(principal.accountId, `warehouse:${deploymentId}`, () =>
      this.ctx.services.deploymentVariables.warehouseConfig(principal.accountId, deploymentId),
    );
    const warehouse = await this.warehouses.get(principal.accountId, deploymentId, config).catch((error: Error) => {
      if (error instanceof ApiError) throw error;
      // Its detail names the server's files and processes: the log has it, the caller gets this.
      if (error instanceof WarehouseUnavailableError) {
        throw badRequest(`The warehouse of deployment ${deploymentId} is busy or cannot be opened; try again`);
      }
      throw badRequest(`The warehouse of deployment ${deploymentId} cannot be opened: ${error.message}`);
    });
    return { buildId, model, warehouse, caller, servedBy, ...(config.type === 'postgres' ? { timeoutMs: config.statementTimeoutMs } : {}) };
  }

  /** As serve, without opening the warehouse: meta reads only the model. */
  async serveModel(principal: Principal, deploymentId: number, branch?: string, asCaller?: Caller): Promise<Omit<Served, 'warehouse'>> {
    const caller = asCaller ?? callerOf(principal, deploymentId);
    const name = branch ?? DEFAULT_BRANCH;
    await assertReaches(principal, name, () => this.branchRow(principal.accountId, deploymentId, name));
    const buildKey = `build:${deploymentId}:${name}`;
    const latest = await this.serving.through(principal.accountId, buildKey, () =>
      this.ctx.services.builds.latestBuilt(principal.accountId, deploymentId, name),
    );
    if (!latest) throw badRequest(`No successful build of branch ${name} yet`);
    const model = await this.models
      .get(latest.buildId, () => this.ctx.services.dataModel.filesAt(principal.accountId, latest.commitId))
      .catch((error: Error) => {
        throw badRequest(error.message);
      });
    return { buildId: latest.buildId, model, caller, servedBy: { accountId: principal.accountId, key: buildKey, value: latest } };
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
   * The deploy branch's build as an internal user reads it from inside the platform (a report's
   * refresh, getMetadata): the user's groups and attribute values feed the model's access policies,
   * as in an internal user's embed session. The caller of the operation checks its own permission.
   */
  async serveAsUser(principal: UserPrincipal, deploymentId: number): Promise<Served> {
    return this.serve(principal, deploymentId, undefined, await callerOfUser(this.ctx.services, principal.accountId, principal.userId));
  }

  /** As serveAsUser, without opening the warehouse. */
  async serveModelAsUser(principal: UserPrincipal, deploymentId: number): Promise<Omit<Served, 'warehouse'>> {
    return this.serveModel(
      principal,
      deploymentId,
      undefined,
      await callerOfUser(this.ctx.services, principal.accountId, principal.userId),
    );
  }

  /**
   * Whether what `servedBy` was read from is still what serving reads: the same remembered object.
   * Any change of the account's builds, branches, variables or deployments (in any process) or the
   * cache's TTL forgets the account's lookups at once, so the next read is another object.
   */
  stillServing(servedBy: ServedBy): boolean {
    return this.serving.cache.get(servedBy.accountId, servedBy.key) === servedBy.value;
  }

  /** The answer a plain load of `key` would get from this process's result cache now, if any (never with Redis). */
  cachedAnswer(key: string): unknown {
    return this.runner.peek?.(key);
  }

  /**
   * `/v1/load`: a query or an array, in the single or (queryType multi) the multi shape. Identical
   * queries share one execution and a cached result; past the continue-wait timeout the answer is
   * `Continue wait` while the query runs on. `renewQuery: true` (or the cache modes `must-revalidate`
   * and `no-cache`, in a query or as the request's `cache`) runs the query again instead of serving
   * the cached answer, under the rules of RunOptions.renew.
   */
  async load(served: Served, request: unknown, queryType?: 'multi', cacheMode?: CacheMode): Promise<unknown> {
    return (await this.loadKeyed(served, request, queryType, cacheMode)).answer;
  }

  /** As load, with the result cache's key and whether the query asked for fresh data. */
  async loadKeyed(
    served: Served,
    request: unknown,
    queryType?: 'multi',
    cacheMode?: CacheMode,
  ): Promise<{ answer: unknown; key: string; renew: boolean }> {
    let capped: unknown;
    let renew: boolean;
    try {
      assertWithinBounds(request);
      const controls = cacheControls(request);
      renew = controls.renew || renewsCache(cacheMode);
      capped = capLimit(controls.query, this.ctx.config.dataApiMaxLimit);
    } catch (error) {
      return toBadRequest(error);
    }
    const key = stableJson([served.buildId, capped, queryType ?? null, served.caller]);
    const answer = await this.runner
      .run(
        key,
        async () =>
          withRefreshTime(
            await loadRequest(served.model, capped, {
              warehouse: served.warehouse,
              caller: served.caller,
              queryType,
              timeoutMs: served.timeoutMs,
            }),
          ),
        { renew },
      )
      .catch(toBadRequest);
    if (answer === CONTINUE_WAIT) return { answer: { error: 'Continue wait' } satisfies ContinueWait, key, renew };
    return { answer, key, renew };
  }

  /** `/v1/sql`: the SQL and parameters a load would run. */
  sql(served: Served, request: unknown) {
    try {
      assertWithinBounds(request);
      return sqlOf(served, capLimit(request, this.ctx.config.dataApiMaxLimit));
    } catch (error) {
      return toBadRequest(error);
    }
  }

  /** `/v1/dry-run`: the normalized queries a load would run. */
  dryRun(served: Served, request: unknown) {
    try {
      assertWithinBounds(request);
      return dryRunOf(served, capLimit(request, this.ctx.config.dataApiMaxLimit));
    } catch (error) {
      return toBadRequest(error);
    }
  }

  /** `/v1/meta`: the cubes and views this caller may query; only the views with `onlyViews`, as Cube's `?onlyViews=true`. */
  meta(served: Pick<Served, 'model' | 'caller'>, { onlyViews = false } = {}) {
    const answer = meta(served.model, served.caller);
    return onlyViews ? { ...answer, cubes: answer.cubes.filter((cube) => cube.type === 'view') } : answer;
  }

  async close(): Promise<void> {
    await this.runner.close();
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
