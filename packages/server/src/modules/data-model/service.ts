import type { Kysely } from 'kysely';
import { ApiError, conflict, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { Database, ModelBranchRow, TreeEntries } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import type { ServiceContext } from '../module.js';
import { BranchOps } from './branches.js';
import { DevModeOps } from './dev-mode.js';
import { FileOps } from './files.js';
import { HistoryOps } from './history.js';
import { checkText } from './limits.js';
import { mergeTrees } from './merge.js';
import { ObjectStore, treeHash } from './objects.js';
import { checkBranchName } from './paths.js';
import { ModelRepo } from './repo.js';
import {
  credentialKey,
  DEFAULT_BRANCH,
  type BranchListener,
  type CommitTreeInput,
  type CommitTreeResult,
  type DataModelStore,
} from './public.js';

/**
 * Attempts at moving a head whose compare-and-swap keeps losing to other writers, each after a
 * short random pause that grows, so writers racing on one branch spread out instead of colliding again.
 */
const CAS_ATTEMPTS = 12;
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 4 * attempt));

export interface AdvanceOptions extends CommitTreeInput {
  /** A second parent: the other head of a merge or pull, so a later merge base is found. */
  mergedFrom?: number;
  /** Also set on the branch in the same update (a dev branch's merge base after a pull). */
  baseAfter?: (newHead: number) => number | undefined;
  /** Queue `build` even when nothing changed (deploy always builds once); merges and commits do not. */
  buildWhenUnchanged?: boolean;
}

/**
 * The data-model store: files as content-addressed blobs, trees and commits, and branch heads that
 * move only by compare-and-swap, so any number of server processes sharing one PostgreSQL agree.
 * The operations of the API live in files.ts, branches.ts, dev-mode.ts and history.ts.
 */
export class DataModelService implements DataModelStore {
  readonly objects: ObjectStore;
  readonly repo: ModelRepo;
  readonly files = new FileOps(this);
  readonly branches = new BranchOps(this);
  readonly devMode = new DevModeOps(this);
  readonly history = new HistoryOps(this);

  constructor(readonly ctx: ServiceContext) {
    this.objects = new ObjectStore(ctx.db);
    this.repo = new ModelRepo(ctx.db);
  }

  get db(): Kysely<Database> {
    return this.ctx.db;
  }

  /** 404 unless the deployment is the account's (a scoped key's reach is checked by the route). */
  async deployment(accountId: number, deploymentId: number): Promise<void> {
    if (!(await this.ctx.services.deployments.find(accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
  }

  async target(principal: Principal, deploymentId: number, branch?: string | null): Promise<ModelBranchRow> {
    await this.deployment(principal.accountId, deploymentId);
    if (branch) return this.visible(principal, deploymentId, branch);
    const session = await this.repo.session(deploymentId, credentialKey(principal));
    if (session) {
      const row = await this.repo.findBranch(deploymentId, session.branch_name);
      if (row) return row;
    }
    return this.ensureDefault(principal.accountId, deploymentId);
  }

  /** A branch by name as the caller sees it: another credential's dev branch does not exist for it. */
  async visible(principal: Principal, deploymentId: number, name: string): Promise<ModelBranchRow> {
    checkBranchName(name);
    if (name === DEFAULT_BRANCH) return this.ensureDefault(principal.accountId, deploymentId);
    const row = await this.repo.findBranch(deploymentId, name);
    if (!row || (row.kind === 'dev' && row.owner_key !== credentialKey(principal))) throw notFound(`Branch ${name} not found`);
    return row;
  }

  async branch(accountId: number, deploymentId: number, name: string): Promise<ModelBranchRow> {
    if (name === DEFAULT_BRANCH) return this.ensureDefault(accountId, deploymentId);
    const row = await this.repo.findBranch(deploymentId, name);
    if (!row || row.account_id !== accountId) throw notFound(`Branch ${name} not found`);
    return row;
  }

  /**
   * The deploy branch, created the first time it is needed with an empty root commit and its build.
   * Two processes may race here: the insert that loses does nothing and both read the winner's row.
   */
  async ensureDefault(accountId: number, deploymentId: number): Promise<ModelBranchRow> {
    const existing = await this.repo.findDefault(deploymentId);
    if (existing) return existing;
    await transaction(this.db, async () => {
      const tree = await this.objects.putTree(accountId, {});
      const root = await this.repo.insertCommit({
        account_id: accountId,
        deployment_id: deploymentId,
        tree_hash: tree,
        parent_ids: [],
        principal: null,
        message: 'Empty data model',
      });
      const row = await this.repo.insertBranch({
        account_id: accountId,
        deployment_id: deploymentId,
        name: DEFAULT_BRANCH,
        kind: 'shared',
        is_default: true,
        head_commit_id: root.id,
      });
      if (row) await this.queueBuild(row, root.id, 'create-branch');
    });
    const row = await this.repo.findDefault(deploymentId);
    if (!row) throw new Error(`deploy branch of deployment ${deploymentId} missing after its creation`);
    return row;
  }

  async treeAt(accountId: number, commitId: number): Promise<TreeEntries> {
    const commit = await this.repo.commit(accountId, commitId);
    return this.objects.readTree(accountId, commit.tree_hash);
  }

  async filesAt(accountId: number, commitId: number): Promise<Map<string, string>> {
    const entries = await this.treeAt(accountId, commitId);
    const contents = await this.objects.blobContents(accountId, Object.values(entries));
    return new Map(Object.entries(entries).map(([path, hash]) => [path, contents.get(hash)!]));
  }

  storeBlobs(accountId: number, contents: readonly string[]): Promise<string[]> {
    return this.objects.storeBlobs(accountId, contents);
  }

  async knownBlobs(accountId: number, hashes: readonly string[]): Promise<Set<string>> {
    return new Set((await this.objects.blobSizes(accountId, hashes)).keys());
  }

  commitTree(principal: Principal | null, branch: ModelBranchRow, input: CommitTreeInput): Promise<CommitTreeResult> {
    return this.advance(principal, branch, input);
  }

  async createBranch(from: ModelBranchRow, name: string): Promise<ModelBranchRow> {
    checkBranchName(name);
    const row = await this.repo.insertBranch({
      account_id: from.account_id,
      deployment_id: from.deployment_id,
      name,
      kind: 'shared',
      dev_mode: false,
      head_commit_id: from.head_commit_id,
      forked_from: from.name,
      base_commit_id: from.head_commit_id,
    });
    if (!row) throw conflict(`Branch ${name} already exists`);
    return row;
  }

  onBranchChange(listener: BranchListener): void {
    this.repo.listeners.push(listener);
  }

  branchPage(afterId: number, limit: number): Promise<ModelBranchRow[]> {
    return this.repo.branchPage(afterId, limit);
  }

  async deleteBranch(accountId: number, deploymentId: number, name: string): Promise<void> {
    const row = await this.repo.findBranch(deploymentId, name);
    if (!row || row.account_id !== accountId || row.is_default) return;
    await transaction(this.db, () => this.repo.deleteBranch(row));
  }

  /**
   * commitTree, with the options merges need. The new tree is `entries` when the head is still at
   * `baseCommitId`; otherwise base → entries is merged into the head. The head moves by
   * compare-and-swap; when another writer moved it first, the merge is redone against the new head.
   */
  async advance(principal: Principal | null, branch: ModelBranchRow, input: AdvanceOptions): Promise<CommitTreeResult> {
    const db = input.db ?? this.db;
    const message = checkText(input.message, 'message');
    const accountId = branch.account_id;
    await this.objects.putTree(accountId, input.entries);
    const base = await this.treeAt(accountId, input.baseCommitId);
    for (let attempt = 1; attempt <= CAS_ATTEMPTS; attempt++) {
      if (attempt > 1) await pause(attempt);
      const current = await this.repo.branchById(branch.id);
      if (!current) throw notFound(`Branch ${branch.name} not found`);
      const headId = current.head_commit_id;
      const head = await this.treeAt(accountId, headId);
      let entries = input.entries;
      if (headId !== input.baseCommitId) {
        const merged = mergeTrees(base, head, input.entries);
        if (!merged.entries) throw conflictOn(merged.conflicts, branch.name);
        entries = merged.entries;
      }
      const moved = await transaction(db, async () => {
        if (treeHash(entries) === treeHash(head)) {
          const baseAfter = input.baseAfter?.(headId);
          if (baseAfter !== undefined && baseAfter !== current.base_commit_id)
            await this.repo.updateBranch(current.id, { base_commit_id: baseAfter });
          const build = input.build && input.buildWhenUnchanged !== false;
          const buildId = build ? await this.queueBuild(current, headId, input.build!) : null;
          return { commitId: headId, changed: false, buildId };
        }
        const tree = await this.objects.putTree(accountId, entries);
        const parents = input.mergedFrom !== undefined && input.mergedFrom !== headId ? [headId, input.mergedFrom] : [headId];
        const commit = await this.repo.insertCommit({
          account_id: accountId,
          deployment_id: branch.deployment_id,
          tree_hash: tree,
          parent_ids: parents,
          principal,
          message,
        });
        const baseAfter = input.baseAfter?.(commit.id);
        if (!(await this.repo.moveHead(current.id, headId, commit.id, baseAfter === undefined ? {} : { base_commit_id: baseAfter })))
          return null;
        const buildId = input.build ? await this.queueBuild(current, commit.id, input.build) : null;
        return { commitId: commit.id, changed: true, buildId };
      });
      if (moved) return moved;
    }
    throw new ApiError('conflict', `Branch ${branch.name} is changing too fast to commit to; try again`, { conflicts: [] });
  }

  /** Queues a build in the transaction open in this context (the builds part owns what it does). */
  async queueBuild(branch: ModelBranchRow, commitId: number, trigger: string): Promise<number> {
    const input = { accountId: branch.account_id, deploymentId: branch.deployment_id, branchName: branch.name, commitId, trigger };
    return (await this.ctx.services.builds.queueBuild(input, this.db)).buildId;
  }
}

/** 409 naming the files changed on both sides; nothing has been written. */
export function conflictOn(paths: string[], branchName: string): ApiError {
  const error = new ApiError('conflict', `Conflicting changes to ${paths.join(', ')} on branch ${branchName}`, { conflicts: paths });
  return error;
}
