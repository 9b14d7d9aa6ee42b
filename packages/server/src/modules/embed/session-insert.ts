import { sql } from 'kysely';

/**
 * The head of an insert of one embed session, for a statement that computes the row itself:
 * embed-tenants mints a known external user's page view in one statement (page-view.ts), whose
 * final select gives these columns in this order.
 */
export const INSERT_SESSION = sql`insert into embed_session (account_id, session_hash, api_key_id, deployment_id, embed_tenant_id,
  external_user_id, internal_user_id, user_ref, creator_mode, show_dashboard_chat, claims, exchange_by)`;
