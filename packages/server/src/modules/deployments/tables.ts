import type { Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    deployment: DeploymentTable;
    engine_version_run: EngineVersionRunTable;
  }

  export interface DeploymentTable {
    id: Generated<number>;
    account_id: number;
    name: string;
    region: string | null;
    creation_step: Generated<string>;
    deploy_mode: Generated<string | null>;
    creation_method: Generated<string | null>;
    release_channel: Generated<string | null>;
    release_channel_version: Generated<string | null>;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type DeploymentRow = Selectable<DeploymentTable>;

  export interface EngineVersionRunTable {
    account_id: number;
    version: string;
    channel: string;
    deployment_id: number | null;
    first_run_at: CreatedAt;
    last_run_at: UpdatedAt;
  }
}
