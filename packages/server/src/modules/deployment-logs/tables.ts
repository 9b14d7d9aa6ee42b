import type { Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    build_log: BuildLogTable;
  }

  export type LogSource = 'production' | 'dev';

  export interface BuildLogTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    build_id: number | null;
    source: LogSource;
    /** The server process that wrote it (its job worker id). */
    pod: string;
    /** What part wrote it: `builder` for builds (the data API adds its own). */
    container: string;
    level: 'info' | 'warn' | 'error';
    message: string;
    created_at: CreatedAt;
  }

  export type BuildLogRow = Selectable<BuildLogTable>;
}
