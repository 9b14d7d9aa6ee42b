import type { Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    oauth_integration: OAuthIntegrationTable;
  }

  export interface OAuthIntegrationTable {
    id: Generated<number>;
    account_id: number;
    name: string;
    type: string;
    auth_url: string;
    token_url: string;
    client_id: string;
    client_secret_encrypted: string | null;
    redirect_uri: string;
    config: Json<Record<string, unknown> | null> | null;
    scopes: Json<unknown[] | null> | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type OAuthIntegrationRow = Selectable<OAuthIntegrationTable>;
}
