import type { Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    deployment_variable: DeploymentVariableTable;
  }

  export interface DeploymentVariableTable {
    account_id: number;
    deployment_id: number;
    name: string;
    /** The value sealed with the instance's SecretBox. */
    value_sealed: string;
    secret: boolean;
    updated_at: UpdatedAt;
  }

  export type DeploymentVariableRow = Selectable<DeploymentVariableTable>;
}
