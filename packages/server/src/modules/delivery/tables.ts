/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`.
 */
declare module '../../store/schema.js' {
  interface Database {
    slack_bot_token: SlackBotTokenTable;
  }

  /** The account's Slack bot token, sealed (migration 0047); never returned. */
  export interface SlackBotTokenTable {
    account_id: number;
    token_sealed: string;
    updated_by: number | null;
    updated_at: UpdatedAt;
  }
}

export {};
