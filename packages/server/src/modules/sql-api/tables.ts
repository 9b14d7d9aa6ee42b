import type { Generated } from 'kysely';

/** The tables this module owns (index.ts lists them), merged into the store's `Database`. */
declare module '../../store/schema.js' {
  interface Database {
    sql_api_credential: SqlApiCredentialTable;
  }

  export interface SqlApiCredentialTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    environment_id: string;
    branch_name: string;
    user_name: string;
    scram_salt: string;
    scram_iterations: number;
    scram_stored_key: string;
    scram_server_key: string;
    password_sealed: string;
    created_at: CreatedAt;
  }
}
