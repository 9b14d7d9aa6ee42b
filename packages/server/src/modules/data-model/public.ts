import type { Principal } from '../../http/principal.js';
import type { Kysely } from 'kysely';
import type { Database, ModelBranchRow, TreeEntries } from '../../store/schema.js';

/**
 * What other modules (uploads, builds, dbt sync, the data API) use of the data-model store. The
 * store's tables are this module's alone; everything else goes through these calls.
 */
export interface DataModelStore {
  /**
   * The branch a request acts on: `branch` when it names one (404 when it does not exist, or is a
   * dev branch of another credential), else the caller's open dev-mode session's branch, else the
   * deployment's deploy branch. An empty string counts as omitted (section 4.8 rule 4). The
   * deploy branch (`main`, with an empty root commit) is created the first time it is needed.
   */
  target(principal: Principal, deploymentId: number, branch?: string | null): Promise<ModelBranchRow>;
  /** The branch by name for work that acts for no caller (builds, dbt sync): 404 when missing. */
  branch(accountId: number, deploymentId: number, name: string): Promise<ModelBranchRow>;
  /** The file tree of a commit: path → blob hash. */
  treeAt(accountId: number, commitId: number): Promise<TreeEntries>;
  /** The files of a commit: path → content. */
  filesAt(accountId: number, commitId: number): Promise<Map<string, string>>;
  /** Stores contents as blobs (checked against the file limits first) and answers their hashes, in order. */
  storeBlobs(accountId: number, contents: readonly string[]): Promise<string[]>;
  /** Which of these hashes the account already holds as blobs. */
  knownBlobs(accountId: number, hashes: readonly string[]): Promise<Set<string>>;
  /**
   * Makes `entries` the branch's tree in one new commit whose parent is the branch head. When the
   * head moved since `baseCommitId`, the change from base to `entries` is merged into the head
   * (three-way, by file): a file changed on both sides differently is a 409 naming the files, and
   * nothing is written. The head moves by compare-and-swap, so two processes never lose a commit.
   * No new commit when the tree would not change. With `build`, queues a build of the new head
   * (or of the unchanged head) in the same transaction.
   */
  commitTree(principal: Principal | null, branch: ModelBranchRow, input: CommitTreeInput): Promise<CommitTreeResult>;
  /**
   * A new shared branch at `from`'s head as read (so a tree computed from that head fits it), for
   * work that acts for no caller (dbt sync); 409 when the name is taken. No build is queued: the
   * caller commits to it with `build`. Joins the transaction open in the context.
   */
  createBranch(from: ModelBranchRow, name: string): Promise<ModelBranchRow>;
  /** Deletes a shared branch (not the deploy branch) for work that acts for no caller; nothing when it is gone. */
  deleteBranch(accountId: number, deploymentId: number, name: string): Promise<void>;
  /** Tells `listener` of every branch made or removed from now on (each of a deployment's environments is one). */
  onBranchChange(listener: BranchListener): void;
  /** Every deployment's branches in id order, `limit` after `afterId`: for a listener to catch up on branches made before it listened. */
  branchPage(afterId: number, limit: number): Promise<ModelBranchRow[]>;
}

/**
 * What a module that keeps something per branch hears: each call runs in the transaction that
 * writes the branch row, so what it writes commits with the branch or not at all.
 */
export interface BranchListener {
  created(branch: ModelBranchRow): Promise<void>;
  deleted(branch: ModelBranchRow): Promise<void>;
}

export interface CommitTreeInput {
  entries: TreeEntries;
  baseCommitId: number;
  message: string;
  /** Queue a build of the result with this trigger (e.g. `deploy`). */
  build?: string;
  db?: Kysely<Database>;
}

export interface CommitTreeResult {
  /** The branch head after the call. */
  commitId: number;
  /** Whether a new commit was made. */
  changed: boolean;
  buildId: number | null;
}

/**
 * Dev mode is state of the credential, not of the account (section 3): an API key is its own
 * credential; a logged-in user is one credential whichever of their access tokens calls.
 */
export function credentialKey(principal: Principal): string {
  switch (principal.kind) {
    case 'apiKey':
      return `apiKey:${principal.credentialId}`;
    case 'accessToken':
      return `user:${principal.userId}`;
    default:
      return `${principal.kind}:${principal.accountId}`;
  }
}

/** Dev branches are named `dev-` and a random suffix; writes are accepted only on them (section 3). */
export const DEV_BRANCH_PREFIX = 'dev-';
/** The deploy branch a deployment starts with. */
export const DEFAULT_BRANCH = 'main';

/** The path rules and limits other modules check input against (uploads), offered here for the module boundary. */
export { checkContent, checkText, MAX_FILE_BYTES, MAX_UPLOAD_FILES } from './limits.js';
export { checkPath } from './paths.js';
