import pg from 'pg';
import { postgresDialect } from '../dialects/postgres.js';
import { QueryTimeoutError } from '../errors.js';
import { withCancellation, type QueryOptions, type QueryResult, type Warehouse } from './warehouse.js';

// Timestamps and dates stay as the text PostgreSQL sends: the load result formats them itself and
// a JavaScript Date would silently move them into the server's local zone.
const RAW_TYPES = new Set([1082, 1114, 1184]);
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    RAW_TYPES.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface PostgresOptions {
  readonly connectionString: string;
  readonly max?: number;
}

/** PostgreSQL through a `pg` pool; cancellation asks the server to cancel the backend running the query. */
export class PostgresWarehouse implements Warehouse {
  readonly dialect = postgresDialect;
  readonly pool: pg.Pool;

  constructor(options: PostgresOptions) {
    // Zone-less timestamps are UTC by convention; the dialect's `::timestamptz` relies on this. Set
    // as a startup parameter, not by a query on connect that the pool's first user would overlap.
    this.pool = new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10, options: '-c TimeZone=UTC' });
  }

  async query(sql: string, params: readonly unknown[], options?: QueryOptions): Promise<QueryResult> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      const result = await withCancellation(
        () => client.query({ text: sql, values: params as unknown[], types }),
        () => {
          broken = true;
          const pid = (client as unknown as { processID?: number }).processID;
          if (pid !== undefined) this.pool.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
        },
        options,
        () => new QueryTimeoutError(),
        () => new QueryTimeoutError('Query was cancelled'),
      );
      return { rows: result.rows as Array<Record<string, unknown>> };
    } finally {
      // A cancelled client may still be finishing its statement; do not hand it to the next query.
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
