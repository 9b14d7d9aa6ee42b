import { demand } from '../../http/authorize.js';
import { badRequest, conflict } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { toIso } from '../../http/common-schemas.js';
import type { ModelBranchRow } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import { checkText } from './limits.js';
import { checkBranchName } from './paths.js';
import { credentialKey, DEFAULT_BRANCH, DEV_BRANCH_PREFIX } from './public.js';
import type { DataModelService } from './service.js';

export function branchView(row: ModelBranchRow) {
  return {
    name: row.name,
    kind: row.kind,
    isDefault: row.is_default,
    devMode: row.dev_mode,
    alwaysActive: row.always_active,
    forkedFrom: row.forked_from,
    headCommitId: row.head_commit_id,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

const NO_UPSTREAM = (id: number) =>
  badRequest(`Deployment ${id} is not connected to a Git repository; there is no upstream branch to remove`);

/** Shared branches: create, delete, enable and disable their staging environment, merge. */
export class BranchOps {
  constructor(private readonly svc: DataModelService) {}

  async list(principal: Principal, deploymentId: number) {
    await this.svc.deployment(principal.accountId, deploymentId);
    await this.svc.ensureDefault(principal.accountId, deploymentId);
    const rows = await this.svc.repo.listBranches(deploymentId, credentialKey(principal));
    return { items: rows.map(branchView) };
  }

  /**
   * One insert pointing at the head of `from`: O(1) whatever the model's size. A shared branch's
   * head gets a build; with devMode the caller's session points at the branch instead, and build
   * status says `dev_mode` for it until something builds it.
   */
  async create(principal: Principal, deploymentId: number, input: { name: string; devMode?: boolean; from?: string }) {
    checkBranchName(input.name);
    if (input.name.startsWith(DEV_BRANCH_PREFIX)) {
      throw badRequest(`Invalid branch name "${input.name}": names starting with ${DEV_BRANCH_PREFIX} are reserved for dev-mode branches`);
    }
    const from = await this.svc.target(principal, deploymentId, input.from || DEFAULT_BRANCH);
    await this.svc.ensureDefault(principal.accountId, deploymentId);
    const row = await transaction(this.svc.db, async () => {
      const created = await this.svc.repo.insertBranch({
        account_id: principal.accountId,
        deployment_id: deploymentId,
        name: input.name,
        kind: 'shared',
        dev_mode: input.devMode === true,
        head_commit_id: from.head_commit_id,
        forked_from: from.name,
        base_commit_id: from.head_commit_id,
      });
      if (!created) throw conflict(`Branch ${input.name} already exists`);
      if (input.devMode) await this.svc.repo.openSession(principal.accountId, deploymentId, credentialKey(principal), created.name);
      else await this.svc.queueBuild(created, created.head_commit_id, 'create-branch');
      return created;
    });
    return { ...branchView(row), branchName: row.name };
  }

  /** Sessions pointing at the branch are closed with it; the deploy branch stays. */
  async delete(principal: Principal, deploymentId: number, name: string, removeOnUpstream?: boolean) {
    if (name === '') throw badRequest('Branch name is empty; name the branch to delete');
    await this.svc.deployment(principal.accountId, deploymentId);
    if (removeOnUpstream) throw NO_UPSTREAM(deploymentId);
    const branch = await this.svc.visible(principal, deploymentId, name);
    if (branch.is_default) throw badRequest(`Branch ${name} is the deploy branch of deployment ${deploymentId} and cannot be deleted`);
    if (branch.kind === 'shared') demand(principal, 'SchemaUpdate', { type: 'deployment', id: deploymentId }, 'delete a shared branch');
    await transaction(this.svc.db, () => this.svc.repo.deleteBranch(branch));
    return { branchName: name, deleted: true as const };
  }

  async setAlwaysActive(principal: Principal, deploymentId: number, name: string, alwaysActive: boolean) {
    await this.svc.deployment(principal.accountId, deploymentId);
    const branch = await this.svc.visible(principal, deploymentId, name);
    if (branch.kind === 'dev') {
      throw badRequest(`Branch ${name} is a dev-mode branch; only shared branches have a staging environment to enable or disable`);
    }
    const row = await this.svc.repo.updateBranch(branch.id, { always_active: alwaysActive });
    return branchView(row ?? branch);
  }

  /**
   * Merges one shared branch into another (three-way from their merge base) in one new commit of
   * the target whose second parent is the source head; the target's new head gets a build.
   */
  async merge(principal: Principal, deploymentId: number, input: { source: string; target: string; message?: string }, trigger = 'merge') {
    await this.svc.deployment(principal.accountId, deploymentId);
    const source = await this.svc.visible(principal, deploymentId, input.source);
    const target = await this.svc.visible(principal, deploymentId, input.target);
    for (const branch of [source, target]) {
      if (branch.kind === 'dev') {
        throw badRequest(
          `Branch ${branch.name} is a dev-mode branch; run plinth data-model commit to push its edits to ${branch.forked_from}`,
        );
      }
    }
    if (source.id === target.id) throw badRequest(`Cannot merge branch ${source.name} into itself`);
    const message = input.message === undefined ? `Merge ${source.name} into ${target.name}` : checkText(input.message, 'message');
    const base = (await this.svc.repo.mergeBase(source.head_commit_id, target.head_commit_id)) ?? target.head_commit_id;
    const entries = await this.svc.treeAt(principal.accountId, source.head_commit_id);
    const result = await this.svc.advance(principal, target, {
      entries,
      baseCommitId: base,
      message,
      mergedFrom: source.head_commit_id,
      build: trigger,
      buildWhenUnchanged: false,
    });
    return {
      branchName: target.name,
      sourceBranch: source.name,
      commitId: result.commitId,
      changed: result.changed,
      buildId: result.buildId,
    };
  }

  async mergeToDefault(principal: Principal, deploymentId: number, input: { branch: string; message?: string; keepBranch?: boolean }) {
    if (input.branch === '') throw badRequest('branch is empty; name the shared branch to merge into the deploy branch');
    if (input.branch === DEFAULT_BRANCH)
      throw badRequest(`Branch ${DEFAULT_BRANCH} is the deploy branch; name another branch to merge into it`);
    const merged = await this.merge(
      principal,
      deploymentId,
      { source: input.branch, target: DEFAULT_BRANCH, message: input.message },
      'merge-to-default',
    );
    let deletedBranch = false;
    if (!input.keepBranch) {
      const branch = await this.svc.repo.findBranch(deploymentId, input.branch);
      if (branch) await transaction(this.svc.db, () => this.svc.repo.deleteBranch(branch));
      deletedBranch = true;
    }
    return { ...merged, branchName: DEFAULT_BRANCH, deletedBranch };
  }
}
