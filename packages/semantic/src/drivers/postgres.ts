import { createRequire } from 'node:module';
import type pg from 'pg';
import { postgresDialect } from '../dialects/postgres.js';
import { QueryTimeoutError } from '../errors.js';
import {
  DEFAULT_BATCH_ROWS,
  withCancellation,
  type QueryOptions,
  type QueryResult,
  type StreamOptions,
  type Warehouse,
} from './warehouse.js';

/**
 * `pg`, required with the first PostgreSQL warehouse: some 4 MiB and 25-60 ms that a process serving
 * only DuckDB warehouses (an embedded server's demo) never needs. A CommonJS package, so synchronously.
 */
let loaded: typeof pg | undefined;
const pgModule = () => (loaded ??= createRequire(import.meta.url)('pg') as typeof pg);

// Timestamps and dates stay as the text PostgreSQL sends: the load result formats them itself and
// a JavaScript Date would silently move them into the server's local zone.
const RAW_TYPES = new Set([1082, 1114, 1184]);
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    RAW_TYPES.has(oid) ? (v: string) => v : pgModule().types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface PostgresOptions {
  readonly connectionString: string;
  readonly max?: number;
  /** Longest a new connection may take (TCP, TLS and start-up) before the query fails; default 10 s. */
  readonly connectTimeoutMs?: number;
  /** Where a lost connection, and the warehouse answering again, are reported; standard error by default. */
  readonly warn?: (message: string) => void;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * The warehouse cannot be reached: no connection could be made (a host that is down, refuses, or
 * accepts and never answers), or the one a query ran on was lost.
 */
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
    const pg = pgModule();
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
    this.warn = options.warn ?? ((message) => process.stderr.write(`plinth: ${message}\n`));
    // An idle connection whose warehouse goes away reports it on the pool, which has already
    // dropped it; unheard, that 'error' event would end the process and every tenant's queries.
    this.pool.on('error', (error) => this.lost(error.message));
  }

  private readonly where: string;
  private readonly connectTimeoutMs: number;
  private readonly warn: (message: string) => void;
  /** A connection was lost and no query has succeeded since. */
  private down = false;

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
    // A connection in use reports its loss on itself, not on the pool: unheard, it ends the process.
    let connectionLost = false;
    const onError = (error: Error) => {
      connectionLost = true;
      this.lost(error.message);
    };
    client.on('error', onError);
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
      this.answered();
      return { rows: result.rows as Array<Record<string, unknown>> };
    } catch (error) {
      if (!connectionLost && !endsConnection(error)) throw error;
      broken = true;
      if (error instanceof QueryTimeoutError) throw error;
      // Only the message: pg's error may carry the client, and with it the connection's password.
      const reason = error instanceof Error ? error.message : String(error);
      this.lost(reason);
      throw new WarehouseUnreachableError(`The connection to the PostgreSQL warehouse at ${this.where} was lost: ${reason}`);
    } finally {
      client.removeListener('error', onError);
      // A cancelled client may still be finishing its statement, a lost one is dead: neither goes
      // to the next query, which gets a fresh connection instead.
      client.release(broken);
    }
  }

  /**
   * A server-side cursor in a read-only transaction of its own pooled connection, read a batch
   * (FETCH) at a time. An early end rolls the transaction back, which closes the cursor; an abort
   * while the consumer holds a batch destroys the connection, which ends the backend's transaction.
   */
  async *stream(sql: string, params: readonly unknown[], options?: StreamOptions): AsyncGenerator<Array<Record<string, unknown>>> {
    const batch = Math.max(1, Math.floor(options?.batchRows ?? DEFAULT_BATCH_ROWS));
    options?.signal?.throwIfAborted();
    const client = await this.connect();
    let released = false;
    let running = false;
    let finished = false;
    const release = (destroy: boolean) => {
      if (released) return;
      released = true;
      client.release(destroy);
    };
    const onError = (error: Error) => {
      this.lost(error.message);
      release(true);
    };
    const onAbort = () => {
      if (!running) release(true);
    };
    client.on('error', onError);
    options?.signal?.addEventListener('abort', onAbort, { once: true });
    const run = async (text: string, values: readonly unknown[] = []) => {
      if (released) throw new QueryTimeoutError('Query was cancelled');
      running = true;
      try {
        return await withCancellation(
          () => client.query({ text, values: values as unknown[], types }),
          () => {
            const pid = (client as unknown as { processID?: number }).processID;
            if (pid !== undefined) this.pool.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
            release(true);
          },
          options,
          () => new QueryTimeoutError(),
          () => new QueryTimeoutError('Query was cancelled'),
        );
      } finally {
        running = false;
      }
    };
    try {
      await run('BEGIN READ ONLY');
      await run(`DECLARE plinth_stream NO SCROLL CURSOR FOR ${sql}`, params);
      for (;;) {
        const { rows } = await run(`FETCH ${batch} FROM plinth_stream`);
        this.answered();
        if (rows.length > 0) yield rows as Array<Record<string, unknown>>;
        if (rows.length < batch) break;
      }
      await run('COMMIT');
      finished = true;
    } catch (error) {
      if (!endsConnection(error)) throw error;
      release(true);
      const reason = error instanceof Error ? error.message : String(error);
      this.lost(reason);
      throw new WarehouseUnreachableError(`The connection to the PostgreSQL warehouse at ${this.where} was lost: ${reason}`);
    } finally {
      options?.signal?.removeEventListener('abort', onAbort);
      client.removeListener('error', onError);
      if (!finished && !released) {
        // Ended early (the consumer stopped, or a statement failed): the rollback closes the cursor.
        await client.query('ROLLBACK').then(
          () => release(false),
          () => release(true),
        );
      }
      release(false);
    }
  }

  /** Said once per outage: an idle pool of ten connections loses all ten at once. */
  private lost(reason: string): void {
    if (this.down) return;
    this.down = true;
    this.warn(`PostgreSQL warehouse at ${this.where}: a connection was lost (${reason}); the next query opens a new one`);
  }

  private answered(): void {
    if (!this.down) return;
    this.down = false;
    this.warn(`PostgreSQL warehouse at ${this.where} answers again`);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * Whether the warehouse itself ended the session: a connection exception (SQLSTATE class 08), or
 * an operator intervention that terminates backends (57P01-57P03: shutdown, crash, restart).
 * Such an error reaches the running query before the connection's own 'error' event does.
 */
function endsConnection(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(08|57P0[1-3])/.test(code);
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
