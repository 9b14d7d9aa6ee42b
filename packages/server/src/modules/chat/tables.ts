import type { Generated, Selectable } from 'kysely';

/** The chat's tables (migration 0035), merged into the store's `Database`. */
declare module '../../store/schema.js' {
  interface Database {
    chat_thread: ChatThreadTable;
    chat_message: ChatMessageTable;
  }

  export interface ChatThreadTable {
    id: string;
    account_id: number;
    deployment_id: number;
    agent_id: number | null;
    /** Whose thread it is (chat/owner.ts): every read names it. */
    owner: string;
    title: string;
    /** Set while a turn streams; a turn older than the runtime's bound is taken as abandoned. */
    streaming_since: Date | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type ChatThreadRow = Selectable<ChatThreadTable>;

  export interface ChatMessageTable {
    id: Generated<number>;
    account_id: number;
    thread_id: string;
    sort: number;
    role: string;
    message_id: string | null;
    line: Json<Record<string, unknown>>;
    created_at: CreatedAt;
  }

  export type ChatMessageRow = Selectable<ChatMessageTable>;
}
