import type { DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import { duckdbDialect } from '../dialects/duckdb.js';
import { QueryTimeoutError, WarehouseUnavailableError } from '../errors.js';
import { StatementCache } from './duckdb-statements.js';
import { withCancellation, type QueryOptions, type QueryResult, type StreamOptions, type Warehouse } from './warehouse.js';

export interface DuckDBOptions {
  /** A database file, or `:memory:` (the default) for an embedded in-memory database. */
  readonly path?: string;
  /**
   * DuckDB lets one process open a file read-write, or any number open it read-only: a reader never
   * creates the file, and fails while another process writes it.
   */
  readonly readOnly?: boolean;
}

/**
 * DuckDB 1.5's common-subplan optimizer merges subplans that differ only in which columns they read
 * and answers one's rows for both (duckdb/duckdb#25819, #24781): a fan-out plan counting two cubes'
 * distinct keys over the same join got the first cube's count for both. 1.5.6 is the newest release,
 * so the optimizer is off until a release with the fixes; `fan-out.test.ts` holds the query.
 */
const SAFE_OPTIMIZERS = { disabled_optimizers: 'common_subplan' };

/**
 * DuckDB in-process. A connection runs one statement at a time, so idle connections are kept in a
 * small pool, each with the statements it has prepared; `interrupt()` on the running connection is
 * how a query is cancelled.
 */
export class DuckDBWarehouse implements Warehouse {
  readonly dialect = duckdbDialect;
  private readonly idle: StatementCache[] = [];
  private closed = false;

  private constructor(readonly instance: DuckDBInstance) {}

  /** Fails with WarehouseUnavailableError, whose message names neither the file nor the process holding it. */
  static async open(options: DuckDBOptions = {}): Promise<DuckDBWarehouse> {
    const config: Record<string, string> = { ...SAFE_OPTIMIZERS, ...(options.readOnly ? { access_mode: 'READ_ONLY' } : {}) };
    // Loaded on first open: DuckDB's native library costs every process (and every engine thread)
    // that imports the engine some 35 MiB and 150 ms, and most of them never open a DuckDB warehouse.
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(options.path ?? ':memory:', config).catch((error: unknown) => {
      throw new WarehouseUnavailableError(error);
    });
    // Zone-less timestamps are UTC by convention, as on PostgreSQL: sessions run in UTC, not in the
    // server's zone, which DuckDB takes by default and applies to TIMESTAMPTZ values, casts and
    // date_trunc. ICU is loaded with the first connection, so the setting cannot go in `config`.
    const connection = await instance.connect();
    try {
      await connection.run("SET GLOBAL TimeZone = 'UTC'");
    } finally {
      connection.closeSync();
    }
    return new DuckDBWarehouse(instance);
  }

  async query(sql: string, params: readonly unknown[], options?: QueryOptions): Promise<QueryResult> {
    if (this.closed) throw new Error('Warehouse is closed');
    const pooled = this.idle.pop() ?? new StatementCache(await this.instance.connect());
    const { connection } = pooled;
    try {
      const values = params.map(toDuckDB);
      const reader = await withCancellation(
        async () => {
          const statement = await pooled.take(sql);
          statement.bind(values);
          const result = await statement.runAndReadAll();
          pooled.give(sql, statement);
          return result;
        },
        () => connection.interrupt(),
        options,
        () => new QueryTimeoutError(),
        () => new QueryTimeoutError('Query was cancelled'),
      );
      return { rows: reader.getRowObjectsJson() as Array<Record<string, unknown>> };
    } finally {
      if (this.closed) connection.closeSync();
      else this.idle.push(pooled);
    }
  }

  /**
   * DuckDB's streaming result on a connection of its own, one vector (up to 2,048 rows) at a time:
   * the query runs ahead of the consumer by at most what DuckDB buffers. An abort interrupts it;
   * the connection closes with the iteration, however it ends.
   */
  async *stream(sql: string, params: readonly unknown[], options?: StreamOptions): AsyncGenerator<Array<Record<string, unknown>>> {
    if (this.closed) throw new Error('Warehouse is closed');
    options?.signal?.throwIfAborted();
    const connection = await this.instance.connect();
    const interrupt = () => connection.interrupt();
    options?.signal?.addEventListener('abort', interrupt, { once: true });
    const guarded = <T>(run: () => Promise<T>) =>
      withCancellation(
        run,
        interrupt,
        options,
        () => new QueryTimeoutError(),
        () => new QueryTimeoutError('Query was cancelled'),
      );
    try {
      const statement = await guarded(() => connection.prepare(sql));
      statement.bind(params.map(toDuckDB));
      const result = await guarded(() => statement.stream());
      const batches = result.yieldRowObjectJson();
      for (;;) {
        const next = await guarded(() => batches.next());
        if (next.done) break;
        yield next.value as Array<Record<string, unknown>>;
      }
    } finally {
      options?.signal?.removeEventListener('abort', interrupt);
      connection.closeSync();
    }
  }

  /** Runs statements that return nothing, e.g. loading data. */
  async exec(sql: string): Promise<void> {
    const connection = await this.instance.connect();
    try {
      await connection.run(sql);
    } finally {
      connection.closeSync();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pooled of this.idle.splice(0)) pooled.connection.closeSync();
    this.instance.closeSync();
  }
}

function toDuckDB(v: unknown): DuckDBValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  return String(v);
}
