import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    ci_run: CiRunTable;
  }

  export type CiRunState = 'active' | 'passed' | 'failed' | 'lapsed';

  export interface CiRunTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    /** credentialKey() of the credential that started the run: its dev mode is what a lapse exits. */
    credential_key: string;
    /** Who may heartbeat and finish the run, and whose dev mode a lapse exits (modules/ci-gate/owner.ts). */
    owner: Json<{ kind: 'apiKey' | 'accessToken'; credentialId: number; userId: number }>;
    ref: string;
    state: ColumnType<CiRunState, CiRunState | undefined, CiRunState>;
    /** The token of the run's lease (lease/store.ts), compared by every heartbeat and takeover; null once the run ended. */
    holder: string | null;
    /** When the run's lease lapses unless a heartbeat renews it; kept after the run ends, as when it last held. */
    lease_until: Timestamp;
    created_at: CreatedAt;
    finished_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  }

  export type CiRunRow = Selectable<CiRunTable>;
}
