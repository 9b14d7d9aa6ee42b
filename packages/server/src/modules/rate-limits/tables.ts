import type { Timestamp } from '../../store/schema.js';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    rate_limit: RateLimitTable;
  }

  export interface RateLimitTable {
    bucket: string;
    hits: number;
    window_start: Timestamp;
    last_hit_at: Timestamp;
  }
}
