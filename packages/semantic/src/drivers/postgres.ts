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
  /** Longest a new connection may take (TCP, TLS and start-up) before the query fails; default 10 s. */
  readonly connectTimeoutMs?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** No connection could be made: a host that is down, refuses, or accepts and never answers. */
export class WarehouseUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WarehouseUnreachableError';
  }
}

/** PostgreSQL through a `pg` pool; cancellation asks the server to cancel the backend running the query. */
export class PostgresWarehouse implements Warehouse {
  readonly dialect = postgresDialect;
  readonly pool: pg.Pool;

  constructor(options: PostgresOptions) {
    // Zone-less timestamps are UTC by convention; the dialect's `::timestamptz` relies on this. Set
    // as a startup parameter, not by a query on connect that the pool's first user would overlap.
    // The timeout is the client's, not the pool's: the pool's would also fail a query that only
    // waits for a busy pool's free connection, which is load, not an unreachable warehouse.
    const connectionTimeoutMillis = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    class TimedClient extends pg.Client {
      constructor(config?: pg.ClientConfig) {
        super({ ...config, connectionTimeoutMillis });
      }
    }
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max ?? 10,
      options: '-c TimeZone=UTC',
      Client: TimedClient,
    });
    this.where = whereOf(options.connectionString);
    this.connectTimeoutMs = connectionTimeoutMillis;
  }

  private readonly where: string;
  private readonly connectTimeoutMs: number;

  /** A pooled connection; failing to make one names the host, since the caller cannot see it. */
  private async connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const why = /timeout/i.test(reason) ? `no answer within ${this.connectTimeoutMs} ms` : reason;
      throw new WarehouseUnreachableError(`Cannot connect to the PostgreSQL warehouse at ${this.where}: ${why}`);
    }
  }

  async query(sql: string, params: readonly unknown[], options?: QueryOptions): Promise<QueryResult> {
    const client = await this.connect();
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

/** `host:port` of a connection string, without the credentials it may carry. */
function whereOf(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname || 'localhost'}:${url.port || '5432'}`;
  } catch {
    return 'the configured address';
  }
}
