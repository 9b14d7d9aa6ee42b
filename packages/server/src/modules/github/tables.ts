import type { Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    github_connection: GithubConnectionTable;
  }

  export interface GithubConnectionTable {
    deployment_id: number;
    account_id: number;
    /** `owner/repo` with an installation, else a URL or path git understands (without credentials since migration 0031). */
    repository: string;
    /** An https URL's `user:password`, sealed (SecretBox), as JSON `{username, password}`; null without (migration 0031). */
    repository_credentials: string | null;
    installation_id: number | null;
    branch: string;
    /** The folder of the repository that holds the data model; null: `model/`. */
    directory: string | null;
    last_commit_sha: string | null;
    last_build_id: number | null;
    last_imported_at: Date | null;
    last_error: string | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type GithubConnectionRow = Selectable<GithubConnectionTable>;
}
