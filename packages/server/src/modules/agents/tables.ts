import type { Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    agent_llm: AgentLlmTable;
    agent: AgentTable;
  }

  /** An OpenAI-compatible endpoint of the account (migration 0030); the key is sealed, never returned. */
  export interface AgentLlmTable {
    id: Generated<number>;
    account_id: number;
    name: string;
    base_url: string;
    model: string;
    api_key_sealed: string | null;
    created_by: number | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type AgentLlmRow = Selectable<AgentLlmTable>;

  export interface AgentTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    name: string;
    accessible_views: Json<string[]>;
    agent_llm_id: number | null;
    allow_embedding: Generated<boolean>;
    config: Json<Record<string, unknown> | null> | null;
    created_by: number | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type AgentRow = Selectable<AgentTable>;
}
