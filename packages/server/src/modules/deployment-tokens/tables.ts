import type { Generated } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    deployment_api_secret: DeploymentApiSecretTable;
    deployment_environment_token: DeploymentEnvironmentTokenTable;
  }

  export interface DeploymentApiSecretTable {
    deployment_id: number;
    account_id: number;
    secret_sealed: string;
    created_at: CreatedAt;
  }

  export interface DeploymentEnvironmentTokenTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    environment_id: string;
    for_meta_sync: Generated<boolean>;
    security_context: Json<Record<string, unknown>>;
    token_sealed: string;
    created_at: CreatedAt;
    expires_at: Timestamp;
  }
}
