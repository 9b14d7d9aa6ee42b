import type { Json, UpdatedAt } from '../../store/schema.js';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    app_theme: AppThemeTable;
  }

  /** The account's app theme: only what an admin set; reads fill in the defaults (migration 0028). */
  export interface AppThemeTable {
    account_id: number;
    theme: Json<Record<string, unknown>>;
    updated_by: number | null;
    updated_at: UpdatedAt;
  }
}
