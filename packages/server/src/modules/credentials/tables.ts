import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    api_key: ApiKeyTable;
    access_token: AccessTokenTable;
    scim_token: ScimTokenTable;
  }

  export interface ApiKeyTable {
    id: Generated<number>;
    account_id: number;
    user_id: number;
    name: string;
    key_hash: string;
    key_prefix: string;
    role: Role;
    deployment_ids: number[] | null;
    created_at: CreatedAt;
    last_used_at: Timestamp | null;
    revoked_at: Timestamp | null;
    /** Why it was revoked, when not by its owner (migration 0012). */
    revoked_reason: ColumnType<string | null, string | null | undefined, string | null>;
    /** The key's own permissions, replacing its role's (migration 0023); null for a key of a role. */
    permissions: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  }

  export type ApiKeyRow = Selectable<ApiKeyTable>;

  export interface AccessTokenTable {
    id: Generated<number>;
    account_id: number;
    user_id: number;
    token_hash: string;
    refresh_token_hash: string | null;
    expires_at: Timestamp;
    refresh_expires_at: Timestamp | null;
    created_at: CreatedAt;
    revoked_at: Timestamp | null;
    revoked_reason: ColumnType<string | null, string | null | undefined, string | null>;
  }

  export interface ScimTokenTable {
    id: Generated<number>;
    account_id: number;
    created_by_user_id: number | null;
    name: string;
    token_hash: string;
    token_prefix: string;
    created_at: CreatedAt;
    last_used_at: Timestamp | null;
    revoked_at: Timestamp | null;
  }

  export type ScimTokenRow = Selectable<ScimTokenTable>;
}
