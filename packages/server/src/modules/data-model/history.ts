import { toIso } from '../../http/common-schemas.js';
import { decodeCursor, toPage, type ListOrder, type PageQuery, pageSize } from '../../http/pagination.js';
import type { Principal } from '../../http/principal.js';
import { diffTrees } from './merge.js';
import type { Commit } from './repo.js';
import type { DataModelService } from './service.js';

/** A branch's commits, newest first: ids grow with time, so the id is the order and the cursor. */
const COMMITS: ListOrder<Commit> = { list: 'data-model-commits', sort: 'id', kind: 'id', direction: 'desc', keyOf: (row) => row.id };

export function commitView(row: Commit) {
  return {
    id: row.id,
    parentIds: row.parent_ids,
    message: row.message,
    author: { kind: row.author_kind, credentialId: row.author_credential_id, userId: row.author_user_id },
    treeHash: row.tree_hash,
    createdAt: toIso(row.created_at),
  };
}

/** History and diff of a branch. */
export class HistoryOps {
  constructor(private readonly svc: DataModelService) {}

  async commits(principal: Principal, deploymentId: number, query: PageQuery & { branch?: string }) {
    const branch = await this.svc.target(principal, deploymentId, query.branch);
    const after = decodeCursor(COMMITS as ListOrder<never>, query.after)?.id;
    const rows = await this.svc.repo.history(principal.accountId, branch.head_commit_id, after, pageSize(query) + 1);
    return { branchName: branch.name, ...toPage(COMMITS, rows, query, commitView) };
  }

  /**
   * What a branch changed: a dev branch against the commit of its shared branch it last synced
   * with; a shared branch against its merge base with the branch it was created from (or the
   * commit it was created at, once that branch is gone); the deploy branch against its head's
   * first parent (nothing before its root).
   */
  async diff(principal: Principal, deploymentId: number, branchName?: string) {
    const branch = await this.svc.target(principal, deploymentId, branchName);
    const accountId = principal.accountId;
    let base: { branchName: string | null; commitId: number | null };
    if (branch.kind === 'dev') {
      base = { branchName: branch.forked_from, commitId: branch.base_commit_id };
    } else if (branch.is_default) {
      const head = await this.svc.repo.commit(accountId, branch.head_commit_id);
      base = { branchName: branch.name, commitId: head.parent_ids[0] ?? null };
    } else {
      const parent = branch.forked_from ? await this.svc.repo.findBranch(deploymentId, branch.forked_from) : undefined;
      const mergeBase = parent ? await this.svc.repo.mergeBase(branch.head_commit_id, parent.head_commit_id) : null;
      base = { branchName: branch.forked_from, commitId: mergeBase ?? branch.base_commit_id };
    }
    const from = base.commitId === null ? {} : await this.svc.treeAt(accountId, base.commitId);
    const to = await this.svc.treeAt(accountId, branch.head_commit_id);
    return { branchName: branch.name, base, headCommitId: branch.head_commit_id, changes: diffTrees(from, to) };
  }
}
