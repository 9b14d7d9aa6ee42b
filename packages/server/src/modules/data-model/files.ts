import { conflict, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { ModelBranchRow, TreeEntries } from '../../store/schema.js';
import { checkText } from './limits.js';
import { checkPath, devOnly } from './paths.js';
import type { DataModelService } from './service.js';

/** The files of a branch: list, read, and the writes accepted only on dev branches (section 3). */
export class FileOps {
  constructor(private readonly svc: DataModelService) {}

  private async at(principal: Principal, deploymentId: number, branchName?: string | null) {
    const branch = await this.svc.target(principal, deploymentId, branchName);
    const entries = await this.svc.treeAt(branch.account_id, branch.head_commit_id);
    return { branch, entries };
  }

  async list(principal: Principal, deploymentId: number, branchName?: string) {
    const { branch, entries } = await this.at(principal, deploymentId, branchName);
    const sizes = await this.svc.objects.blobSizes(branch.account_id, Object.values(entries));
    const items = Object.keys(entries)
      .sort()
      .map((path) => ({ path, size: sizes.get(entries[path]!) ?? 0, hash: entries[path]! }));
    return { branchName: branch.name, commitId: branch.head_commit_id, items };
  }

  async hashes(principal: Principal, deploymentId: number, branchName?: string) {
    const { branch, entries } = await this.at(principal, deploymentId, branchName);
    const hashes: TreeEntries = {};
    for (const path of Object.keys(entries).sort()) hashes[path] = entries[path]!;
    return { branchName: branch.name, commitId: branch.head_commit_id, hashes };
  }

  async get(principal: Principal, deploymentId: number, path: string, branchName?: string) {
    checkPath(path);
    const { branch, entries } = await this.at(principal, deploymentId, branchName);
    const hash = entries[path];
    if (!hash) throw missing(path, branch);
    const content = (await this.svc.objects.blobContents(branch.account_id, [hash])).get(hash)!;
    return { path, branchName: branch.name, commitId: branch.head_commit_id, hash, size: Buffer.byteLength(content, 'utf8'), content };
  }

  /** Same content as the branch holds: no commit, `changed: false`. */
  async put(principal: Principal, deploymentId: number, input: { path: string; content: string; branch?: string; message?: string }) {
    checkPath(input.path);
    const message = input.message === undefined ? `Put ${input.path}` : checkText(input.message, 'message');
    const { branch, entries } = await this.at(principal, deploymentId, input.branch);
    devOnly(branch);
    const [hash] = await this.svc.objects.storeBlobs(branch.account_id, [input.content], [input.path]);
    const size = Buffer.byteLength(input.content, 'utf8');
    const view = { path: input.path, branchName: branch.name, hash: hash!, size };
    if (entries[input.path] === hash) return { ...view, commitId: branch.head_commit_id, changed: false };
    const result = await this.svc.commitTree(principal, branch, {
      entries: { ...entries, [input.path]: hash! },
      baseCommitId: branch.head_commit_id,
      message,
    });
    return { ...view, commitId: result.commitId, changed: result.changed };
  }

  async delete(principal: Principal, deploymentId: number, path: string, branchName?: string) {
    checkPath(path);
    const { branch, entries } = await this.at(principal, deploymentId, branchName);
    devOnly(branch);
    if (!entries[path]) throw missing(path, branch);
    const { [path]: _gone, ...rest } = entries;
    const result = await this.svc.commitTree(principal, branch, {
      entries: rest,
      baseCommitId: branch.head_commit_id,
      message: `Delete ${path}`,
    });
    return { path, branchName: branch.name, commitId: result.commitId };
  }

  async rename(principal: Principal, deploymentId: number, input: { from: string; to: string; branch?: string }) {
    checkPath(input.from);
    checkPath(input.to);
    const { branch, entries } = await this.at(principal, deploymentId, input.branch);
    devOnly(branch);
    const hash = entries[input.from];
    if (!hash) throw missing(input.from, branch);
    if (input.to === input.from) return { from: input.from, to: input.to, branchName: branch.name, commitId: branch.head_commit_id };
    if (entries[input.to]) throw conflict(`File ${input.to} already exists on branch ${branch.name}`);
    const { [input.from]: _moved, ...rest } = entries;
    const result = await this.svc.commitTree(principal, branch, {
      entries: { ...rest, [input.to]: hash },
      baseCommitId: branch.head_commit_id,
      message: `Rename ${input.from} to ${input.to}`,
    });
    return { from: input.from, to: input.to, branchName: branch.name, commitId: result.commitId };
  }
}

const missing = (path: string, branch: ModelBranchRow) => notFound(`File ${path} not found on branch ${branch.name}`);
