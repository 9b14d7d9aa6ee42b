import type { ColumnType, Generated } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    tenant_settings: TenantSettingsTable;
  }

  export interface TenantSettingsTable {
    account_id: number;
    use_creator_mode: Generated<boolean>;
    bulk_action_limit: Generated<number>;
    show_dashboard_chat: Generated<boolean>;
    embedding_enabled: Generated<boolean>;
    /** A JSON array of origins; null: any origin may frame the embed pages. */
    embed_frame_ancestors: ColumnType<string[] | null, string | null | undefined, string | null>;
    updated_at: UpdatedAt;
  }
}
