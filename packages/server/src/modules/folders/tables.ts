import type { Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    folder: FolderTable;
  }

  /** Workspace content (migration 0027): private to `created_by` until a resource policy shares it. */
  export interface FolderTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    parent_id: number | null;
    name: string;
    position: Generated<number>;
    created_by: number | null;
    updated_by: number | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type FolderRow = Selectable<FolderTable>;
}
