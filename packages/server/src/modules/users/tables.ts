import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    app_user: AppUserTable;
    embed_theme: EmbedThemeTable;
  }

  export interface AppUserTable {
    id: Generated<number>;
    account_id: number;
    uuid: Generated<string>;
    /** The sign-in address; a provisioned user may have none (migration 0012). */
    email: string | null;
    /** SCIM userName when a SCIM client set it; null means the e-mail is the userName (0012). */
    user_name: string | null;
    display_name: string | null;
    given_name: string | null;
    family_name: string | null;
    external_id: string | null;
    role: Role;
    active: Generated<boolean>;
    password_hash: string | null;
    /** Addresses a SCIM client sent (migration 0006); null when none were, see StoredEmail. */
    emails: ColumnType<StoredEmail[] | null, string | null | undefined, string | null>;
    /** The rest of the SCIM core User and its enterprise extension, as sent (migration 0012). */
    scim_attributes: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
    /** A SCIM delete keeps the row, deactivated, with who and why (migration 0012). */
    deleted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    deleted_by: ColumnType<string | null, string | null | undefined, string | null>;
    deletion_reason: ColumnType<string | null, string | null | undefined, string | null>;
    /** When the user last signed in, to the minute (migration 0028). */
    last_login_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    version: Generated<number>;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export interface StoredEmail {
    value: string;
    type?: string;
    primary?: boolean;
    display?: string;
  }

  export type AppUserRow = Selectable<AppUserTable>;

  export type NewAppUser = Insertable<AppUserTable>;

  export type AppUserUpdate = Updateable<AppUserTable>;

  /** The account's embed theme: only what an admin set (migration 0028). */
  export interface EmbedThemeTable {
    account_id: number;
    theme: Json<Record<string, unknown>>;
    updated_by: number | null;
    updated_at: UpdatedAt;
  }
}
