import type { Generated } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    ai_engineer_settings: AiEngineerSettingsTable;
    agent_region_choice: AgentRegionChoiceTable;
  }

  export interface AiEngineerSettingsTable {
    account_id: number;
    enabled: Generated<boolean>;
    token_ttl_seconds: Generated<number>;
    updated_by: number | null;
    updated_at: UpdatedAt;
  }

  export interface AgentRegionChoiceTable {
    account_id: number;
    user_id: number;
    region_name: string;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }
}
