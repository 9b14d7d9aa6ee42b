import type { Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    embed_session: EmbedSessionTable;
  }

  export interface EmbedSessionTable {
    id: Generated<number>;
    account_id: number;
    session_hash: string;
    api_key_id: number | null;
    deployment_id: number;
    embed_tenant_id: number;
    external_user_id: number | null;
    internal_user_id: number | null;
    /** The external user's externalId or the internal user's e-mail, kept for the audit list. */
    user_ref: string;
    creator_mode: boolean;
    show_dashboard_chat: boolean | null;
    claims: Json<Record<string, unknown>>;
    created_at: CreatedAt;
    exchange_by: Timestamp;
    exchanged_at: Timestamp | null;
    revoked_at: Timestamp | null;
  }

  export type EmbedSessionRow = Selectable<EmbedSessionTable>;
}
