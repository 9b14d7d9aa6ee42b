import type { Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    model_upload: ModelUploadTable;
    model_upload_file: ModelUploadFileTable;
  }

  export type UploadState = 'open' | 'finished' | 'aborted';

  export interface ModelUploadTable {
    id: string;
    account_id: number;
    deployment_id: number;
    branch_name: string;
    base_commit_id: number;
    /** Every local file of the deploy: path → SHA-256. */
    manifest: Json<TreeEntries>;
    keep_missing: Generated<boolean>;
    message: string | null;
    credential_key: string;
    state: Generated<UploadState>;
    expires_at: Timestamp;
    created_at: CreatedAt;
  }

  export type ModelUploadRow = Selectable<ModelUploadTable>;

  export interface ModelUploadFileTable {
    upload_id: string;
    path: string;
    hash: string;
  }
}
