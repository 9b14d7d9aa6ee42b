import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    dbt_integration: DbtIntegrationTable;
    dbt_sync: DbtSyncTable;
  }

  export interface DbtIntegrationTable {
    deployment_id: number;
    account_id: number;
    /** `owner/repo` with an installation, else a Git URL (without credentials) or a local path, as git understands it. */
    repository: string;
    /** The GitHub App installation whose token clones `repository` (migration 0032). */
    installation_id: number | null;
    /** An https URL's `user:password`, sealed (SecretBox), as JSON `{username, password}`; null without (migration 0032). */
    repository_credentials: string | null;
    /** The dbt project's folder in the repository, '' for its root. */
    folder: string;
    branch: string;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type DbtIntegrationRow = Selectable<DbtIntegrationTable>;

  export type DbtSyncState = 'queued' | 'running' | 'written' | 'failed' | 'cancelled';

  export interface DbtSyncStageRecord {
    name: string;
    status: string;
    startedAt: string | null;
    finishedAt: string | null;
    message: string | null;
    progress: { done: number; total: number } | null;
  }

  export interface DbtSyncTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    /** The integration's repository when the sync started; its credentials are the integration's (migration 0032). */
    repository: string;
    /** The installation the sync clones through, when the repository is `owner/repo` (migration 0032). */
    installation_id: number | null;
    folder: string;
    ref: string;
    commit_sha: string | null;
    state: Generated<DbtSyncState>;
    cancel_requested: Generated<boolean>;
    stage: string | null;
    stages: Json<DbtSyncStageRecord[]>;
    branch_name: string | null;
    build_id: number | null;
    error: string | null;
    files: ColumnType<Array<{ path: string; cube: string }>, string | undefined, string>;
    job_id: number | null;
    worker_id: string | null;
    created_at: CreatedAt;
    finished_at: Timestamp | null;
  }

  export type DbtSyncRow = Selectable<DbtSyncTable>;
}
