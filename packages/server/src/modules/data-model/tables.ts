import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    model_blob: ModelBlobTable;
    model_tree: ModelTreeTable;
    model_commit: ModelCommitTable;
    model_branch: ModelBranchTable;
    dev_mode_session: DevModeSessionTable;
  }

  export interface ModelBlobTable {
    account_id: number;
    /** SHA-256 of the content's UTF-8 bytes, lower-case hex. */
    hash: string;
    size: number;
    content: string;
    created_at: CreatedAt;
  }

  /** A file tree: path (relative to the model root, e.g. `model/cubes/orders.yml`) → blob hash. */
  export type TreeEntries = Record<string, string>;

  export interface ModelTreeTable {
    account_id: number;
    hash: string;
    entries: Json<TreeEntries>;
    file_count: number;
    total_size: ColumnType<number, number, number>;
  }

  export type AuthorKind = 'apiKey' | 'accessToken' | 'system';

  export interface ModelCommitTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    tree_hash: string;
    parent_ids: ColumnType<number[], number[] | undefined, never>;
    author_kind: AuthorKind;
    author_credential_id: number | null;
    author_user_id: number | null;
    message: string;
    created_at: CreatedAt;
  }

  export type ModelCommitRow = Selectable<ModelCommitTable>;

  export type BranchKind = 'shared' | 'dev';

  export interface ModelBranchTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    name: string;
    kind: BranchKind;
    is_default: Generated<boolean>;
    /** A shared branch made by `create-branch --dev-mode`: build status says `dev_mode`, writes are still refused. */
    dev_mode: Generated<boolean>;
    /** Its staging environment is always active (enable-branch), not only while viewed. */
    always_active: Generated<boolean>;
    head_commit_id: number;
    /** Dev branch: the shared branch it was forked from and commits to. Shared branch: the branch it was created from. */
    forked_from: string | null;
    /** Dev branch: the commit of `forked_from` it was forked from or last pulled or committed (the merge base). */
    base_commit_id: number | null;
    /** Dev branch: the credential it belongs to (`credentialKey`); null for shared branches. */
    owner_key: string | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type ModelBranchRow = Selectable<ModelBranchTable>;

  export interface DevModeSessionTable {
    account_id: number;
    deployment_id: number;
    credential_key: string;
    branch_name: string;
    created_at: CreatedAt;
  }
}
