import type { Kysely } from 'kysely';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { decodeCursor, pageSize, toPage, type ListOrder, type PageQuery } from '../../http/pagination.js';
import type { Principal } from '../../http/principal.js';
import { afterPosition } from '../../store/keyset.js';
import type { Database, ModelBranchRow } from '../../store/schema.js';
import { DEV_BRANCH_PREFIX } from '../data-model/public.js';
import type { ServiceContext } from '../module.js';
import { compileFiles } from './compiler.js';
import { buildJob } from './job.js';
import type { BuildQueue, CompileSummary, LatestBuild, QueueBuildInput } from './public.js';
import { queueBuild } from './queue.js';
import { devModeView, selectBuilds, toView, type BuildView, type BuildWithJob } from './views.js';
import { validate, type ValidateInput } from './validate.js';

/** The newest built builds of a branch that serving looks at; past them, a held build serves anyway. */
const SERVING_CANDIDATES = 5;

/** Newest first: the build a person looks for is the last one. */
const BUILDS: ListOrder<{ id: number }> = { list: 'builds', sort: 'id', kind: 'id', direction: 'desc', keyOf: (row) => row.id };

/** Builds of data-model commits: queued here, compiled by the `data-model.build` job kind. */
export class BuildService implements BuildQueue {
  constructor(readonly ctx: ServiceContext) {}

  queueBuild(input: QueueBuildInput, db?: Kysely<Database>): Promise<{ buildId: number }> {
    return queueBuild(db ?? this.ctx.db, input);
  }

  compileFiles(files: ReadonlyMap<string, string>): Promise<CompileSummary> {
    return compileFiles(files);
  }

  async latestBuilt(accountId: number, deploymentId: number, branchName: string): Promise<LatestBuild | null> {
    const rows = await this.ctx.db
      .selectFrom('model_build')
      .select(['id', 'commit_id'])
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .where('branch_name', '=', branchName)
      .where('status', '=', 'built')
      .orderBy('id', 'desc')
      .limit(SERVING_CANDIDATES)
      .execute();
    if (!rows.length) return null;
    // A newer build whose pre-aggregations are still building waits; with none before it, it serves.
    const held = await this.ctx.services.preAggregations.held(
      this.ctx.db,
      rows.map((row) => Number(row.id)),
    );
    const row = rows.find((candidate) => !held.has(Number(candidate.id))) ?? rows[0]!;
    return { buildId: Number(row.id), commitId: Number(row.commit_id) };
  }

  /** A build by id, for work that acts for no caller (the first start waits for its demo's build). */
  async byId(accountId: number, buildId: number): Promise<BuildView | undefined> {
    const row = await selectBuilds(this.ctx.db).where('b.account_id', '=', accountId).where('b.id', '=', buildId).executeTakeFirst();
    return row ? toView(row as BuildWithJob) : undefined;
  }

  validate(principal: Principal, deploymentId: number, input: ValidateInput) {
    return validate(this.ctx, principal, deploymentId, input);
  }

  /**
   * The newest build of the branch's head. A dev-mode branch whose head has none is `dev_mode`; a
   * shared branch whose head has none yet shows its newest build (the head's is still to come).
   */
  async status(principal: Principal, deploymentId: number, branchName?: string): Promise<BuildView> {
    const branch = await this.ctx.services.dataModel.target(principal, deploymentId, branchName);
    const ofBranch = () => this.ofBranch(branch).orderBy('b.id', 'desc').limit(1);
    const head = await ofBranch().where('b.commit_id', '=', branch.head_commit_id).executeTakeFirst();
    if (head) return toView(head as BuildWithJob);
    if (branch.kind === 'dev' || branch.dev_mode) return devModeView(branch);
    const newest = await ofBranch().executeTakeFirst();
    if (!newest) throw notFound(`Branch ${branch.name} has no build yet`);
    return toView(newest as BuildWithJob);
  }

  async list(principal: Principal, deploymentId: number, query: PageQuery & { branch?: string }) {
    const after = decodeCursor(BUILDS, query.after);
    const branch = await this.ctx.services.dataModel.target(principal, deploymentId, query.branch);
    const rows = await this.ofBranch(branch)
      .$call(afterPosition(BUILDS, { key: 'b.id', id: 'b.id' }, after, pageSize(query) + 1))
      .execute();
    const withIds = rows.map((row) => ({ ...(row as BuildWithJob), id: Number(row.id) }));
    return { branchName: branch.name, ...toPage(BUILDS, withIds, query, toView) };
  }

  async get(principal: Principal, deploymentId: number, buildId: number): Promise<BuildView> {
    return toView(await this.find(principal, deploymentId, buildId));
  }

  /** Builds the branch's head again (after a fix outside the model, say a warehouse change). */
  async rebuild(principal: Principal, deploymentId: number, branchName?: string): Promise<BuildView> {
    const branch = await this.ctx.services.dataModel.target(principal, deploymentId, branchName);
    const { buildId } = await this.queueBuild({
      accountId: principal.accountId,
      deploymentId,
      branchName: branch.name,
      commitId: Number(branch.head_commit_id),
      trigger: 'rebuild',
    });
    return this.get(principal, deploymentId, buildId);
  }

  /** A queued build is cancelled at once; a running one at its next step; a finished one is a 409. */
  async cancel(principal: Principal, deploymentId: number, buildId: number): Promise<BuildView> {
    const build = await this.find(principal, deploymentId, buildId);
    const view = toView(build);
    if (view.status !== 'building')
      throw conflict(`Build ${buildId} is already ${view.status}; only a build still building can be cancelled`);
    if (build.status === 'queued') {
      await this.ctx.db
        .updateTable('model_build')
        .set({ status: 'cancelled', finished_at: new Date() })
        .where('id', '=', build.id)
        .where('status', '=', 'queued')
        .execute();
    }
    if (build.job_id !== null) await buildJob.cancel(this.ctx.db, Number(build.job_id));
    return this.get(principal, deploymentId, buildId);
  }

  private ofBranch(branch: ModelBranchRow) {
    return selectBuilds(this.ctx.db).where('b.deployment_id', '=', branch.deployment_id).where('b.branch_name', '=', branch.name);
  }

  /** Another credential's dev branches are invisible: so are their builds. */
  private async find(principal: Principal, deploymentId: number, buildId: number): Promise<BuildWithJob> {
    if (!Number.isSafeInteger(buildId) || buildId < 1) throw badRequest(`Invalid build id ${buildId}`);
    const row = (await selectBuilds(this.ctx.db)
      .where('b.account_id', '=', principal.accountId)
      .where('b.deployment_id', '=', deploymentId)
      .where('b.id', '=', buildId)
      .executeTakeFirst()) as BuildWithJob | undefined;
    if (!row) throw notFound(`Build ${buildId} not found`);
    if (row.branch_name.startsWith(DEV_BRANCH_PREFIX)) {
      await this.ctx.services.dataModel.target(principal, deploymentId, row.branch_name).catch(() => {
        throw notFound(`Build ${buildId} not found`);
      });
    }
    return row;
  }
}
