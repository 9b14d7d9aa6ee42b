import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    user_oauth_token: UserOAuthTokenTable;
  }

  /** Tokens a provider issued to one user through an OAuth integration, sealed (migration 0029). */
  export interface UserOAuthTokenTable {
    id: Generated<number>;
    account_id: number;
    user_id: number;
    integration_id: number;
    /** Null once revoked: nothing usable is kept. */
    access_token_encrypted: string | null;
    refresh_token_encrypted: string | null;
    token_type: Generated<string>;
    scopes: ColumnType<string[], string | undefined, string>;
    expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    refreshed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type UserOAuthTokenRow = Selectable<UserOAuthTokenTable>;
}
