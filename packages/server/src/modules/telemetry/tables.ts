import type { Generated } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    telemetry_event: TelemetryEventTable;
  }

  export interface TelemetryEventTable {
    id: Generated<number>;
    account_id: number;
    command: string;
    success: boolean;
    version: string;
    platform: string;
    machine_id: string;
    created_at: CreatedAt;
  }
}
