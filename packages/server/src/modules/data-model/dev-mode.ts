import { randomBytes } from 'node:crypto';
import { badRequest } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { transaction } from '../../store/transaction.js';
import { checkText } from './limits.js';
import { credentialKey, DEV_BRANCH_PREFIX } from './public.js';
import { devOnly } from './paths.js';
import { demand } from '../../http/authorize.js';
import type { DataModelService } from './service.js';

/**
 * Dev mode, state of the credential (section 3): a session names the dev branch that commands
 * omitting a branch act on. Entering it on a shared branch forks a new personal `dev-…` branch
 * (one insert, whatever the model's size); on one of the caller's own dev branches it resumes.
 */
export class DevModeOps {
  constructor(private readonly svc: DataModelService) {}

  async status(principal: Principal, deploymentId: number) {
    await this.svc.deployment(principal.accountId, deploymentId);
    const session = await this.svc.repo.session(deploymentId, credentialKey(principal));
    const branch = session ? await this.svc.repo.findBranch(deploymentId, session.branch_name) : undefined;
    if (!session || !branch) return { active: false, branchName: null, forkedFrom: null };
    return { active: true, branchName: branch.name, forkedFrom: branch.forked_from };
  }

  async enter(principal: Principal, deploymentId: number, name: string) {
    if (name === '') throw badRequest('branch is empty; name the shared branch to fork, or one of your dev-mode branches to resume');
    const key = credentialKey(principal);
    const branch = await this.svc.target(principal, deploymentId, name);
    if (branch.kind === 'dev') {
      await this.svc.repo.openSession(principal.accountId, deploymentId, key, branch.name);
      return { active: true as const, branchName: branch.name, forkedFrom: branch.forked_from, commitId: branch.head_commit_id };
    }
    const fork = await transaction(this.svc.db, async () => {
      const row = await this.svc.repo.insertBranch({
        account_id: principal.accountId,
        deployment_id: deploymentId,
        name: `${DEV_BRANCH_PREFIX}${randomBytes(5).toString('hex')}`,
        kind: 'dev',
        head_commit_id: branch.head_commit_id,
        forked_from: branch.name,
        base_commit_id: branch.head_commit_id,
        owner_key: key,
      });
      // 40 random bits: a clash is as good as impossible, and the unique index refuses it anyway.
      if (!row) throw new Error('dev branch name clash');
      await this.svc.repo.openSession(principal.accountId, deploymentId, key, row.name);
      return row;
    });
    return { active: true as const, branchName: fork.name, forkedFrom: fork.forked_from, commitId: fork.head_commit_id };
  }

  async exit(principal: Principal, deploymentId: number) {
    await this.svc.deployment(principal.accountId, deploymentId);
    const closed = await this.svc.repo.closeSession(deploymentId, credentialKey(principal));
    return { active: false as const, branchName: closed };
  }

  /**
   * Pushes a dev branch's edits to the shared branch it was forked from: base → dev head merged
   * into the shared head (409 naming the files changed on both sides). The dev branch then
   * stands at the new shared head, which holds its edits and everyone else's.
   */
  async commit(principal: Principal, deploymentId: number, input: { branch?: string; message: string }) {
    const message = checkText(input.message, 'message');
    if (message.trim() === '') throw badRequest('message is empty; say what the commit changes with -m');
    const dev = await this.svc.target(principal, deploymentId, input.branch);
    devOnly(dev);
    const shared = await this.svc.branch(principal.accountId, deploymentId, dev.forked_from!);
    // Into the deploy branch, a commit changes production as a merge does (issue 15).
    if (shared.is_default) demand(principal, 'DeploymentUpdate', { type: 'deployment', id: deploymentId }, 'commit into the deploy branch');
    const entries = await this.svc.treeAt(principal.accountId, dev.head_commit_id);
    return transaction(this.svc.db, async () => {
      const result = await this.svc.advance(principal, shared, {
        entries,
        baseCommitId: dev.base_commit_id!,
        message,
        build: 'commit',
        buildWhenUnchanged: false,
      });
      if (!(await this.svc.repo.moveHead(dev.id, dev.head_commit_id, result.commitId, { base_commit_id: result.commitId }))) {
        throw badRequest(`Branch ${dev.name} changed while committing it; run the commit again`);
      }
      return {
        branchName: shared.name,
        sourceBranch: dev.name,
        commitId: result.commitId,
        changed: result.changed,
        buildId: result.buildId,
      };
    });
  }

  /** Brings the shared branch's newer commits into the dev branch, keeping its own edits (409 on conflict). */
  async pull(principal: Principal, deploymentId: number, input: { branch?: string }) {
    const dev = await this.svc.target(principal, deploymentId, input.branch);
    devOnly(dev);
    const shared = await this.svc.branch(principal.accountId, deploymentId, dev.forked_from!);
    const sharedHead = shared.head_commit_id;
    const entries = await this.svc.treeAt(principal.accountId, sharedHead);
    const result = await this.svc.advance(principal, dev, {
      entries,
      baseCommitId: dev.base_commit_id!,
      message: `Pull ${shared.name} into ${dev.name}`,
      mergedFrom: sharedHead,
      baseAfter: () => sharedHead,
    });
    return { branchName: dev.name, commitId: result.commitId, changed: result.changed };
  }
}
