import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    instance_secret: InstanceSecretTable;
    account: AccountTable;
  }

  export interface InstanceSecretTable {
    name: string;
    value: string;
    created_at: CreatedAt;
  }

  export interface AccountTable {
    id: Generated<number>;
    name: string;
    custom_domain: string | null;
    created_at: CreatedAt;
    /** Set by `plinth-server accounts disable` (migration 0010): every request to the account is refused. */
    disabled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  }

  export type AccountRow = Selectable<AccountTable>;
}
