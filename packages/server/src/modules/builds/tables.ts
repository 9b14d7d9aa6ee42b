import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    model_build: ModelBuildTable;
  }

  export type BuildStatus = 'queued' | 'building' | 'built' | 'failed' | 'cancelled';

  export interface ModelBuildTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    branch_name: string;
    commit_id: number;
    status: Generated<BuildStatus>;
    job_id: number | null;
    /** What queued it: deploy, commit, merge, merge-to-default, validate, rebuild, dbt-sync, data-api. */
    trigger: string;
    errors: ColumnType<unknown[] | null, string | null | undefined, string | null>;
    cubes_count: number | null;
    created_at: CreatedAt;
    started_at: Timestamp | null;
    finished_at: Timestamp | null;
  }

  export type ModelBuildRow = Selectable<ModelBuildTable>;
}
