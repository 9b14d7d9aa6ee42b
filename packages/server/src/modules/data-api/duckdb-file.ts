import { stat } from 'node:fs/promises';
import {
  duckdbDialect,
  DuckDBWarehouse,
  WarehouseUnavailableError,
  type QueryOptions,
  type QueryResult,
  type StreamOptions,
  type Warehouse,
} from '@plinth/semantic';

interface Opened {
  warehouse: DuckDBWarehouse;
  /** Which file it was opened on (see identityOf). */
  identity: string | null;
  /** Queries running on it: one replaced by a newer file is closed when the last of them ends. */
  users: number;
}

/**
 * A DuckDB file as the data API reads it: opened read-only, so that any number of server processes
 * sharing a data directory serve it together (DuckDB lets one process hold a file read-write, or
 * any number hold it read-only).
 *
 * Writers never open the file itself, which would need every reader to let go of it first: they
 * write a copy and rename it over the file (replaceDuckDBFile). So that readers see what was
 * written, each query first looks at which file the path names now, and a new one is opened for it
 * and the next queries; queries already running finish on the old one, which is closed after them.
 * Until a file exists (a deployment nobody has written data for), queries meet an empty in-memory
 * database, as they met the empty file a read-write open used to create.
 */
export class DuckDBFile implements Warehouse {
  readonly dialect = duckdbDialect;
  private reopening: Promise<void> | undefined;
  private closed = false;

  private constructor(
    readonly path: string,
    private current: Opened,
    private readonly warn: (message: string) => void,
  ) {}

  /** Fails, as a reopen does, with WarehouseUnavailableError: its message is for the caller, its detail went to `warn`. */
  static async open(path: string, warn: (message: string) => void): Promise<DuckDBFile> {
    return new DuckDBFile(path, await openAt(path, await identityOf(path, warn), warn), warn);
  }

  async query(sql: string, params: readonly unknown[], options?: QueryOptions): Promise<QueryResult> {
    const opened = await this.acquire();
    try {
      return await opened.warehouse.query(sql, params, options);
    } finally {
      opened.users -= 1;
      if (opened !== this.current && opened.users === 0) void opened.warehouse.close();
    }
  }

  /** A stream holds its file in use until it ends, as a query does, however long its reader takes. */
  async *stream(sql: string, params: readonly unknown[], options?: StreamOptions): AsyncGenerator<Array<Record<string, unknown>>> {
    const opened = await this.acquire();
    try {
      yield* opened.warehouse.stream(sql, params, options);
    } finally {
      opened.users -= 1;
      if (opened !== this.current && opened.users === 0) void opened.warehouse.close();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.reopening?.catch(() => undefined);
    await this.current.warehouse.close();
  }

  /** The newest file's warehouse, counted as in use before anything else can retire it. */
  private async acquire(): Promise<Opened> {
    if (this.closed) throw new Error('Warehouse is closed');
    const identity = await identityOf(this.path, this.warn);
    if (identity !== this.current.identity) {
      // Queries that notice the same replacement together open the new file once.
      this.reopening ??= this.reopen(identity).finally(() => (this.reopening = undefined));
      await this.reopening;
    }
    if (this.closed) throw new Error('Warehouse is closed');
    this.current.users += 1;
    return this.current;
  }

  /** A file that cannot be opened fails this query; the old one stays current, so the next query tries again. */
  private async reopen(identity: string | null): Promise<void> {
    const opened = await openAt(this.path, identity, this.warn);
    if (this.closed) {
      await opened.warehouse.close();
      return;
    }
    const old = this.current;
    this.current = opened;
    if (old.users === 0) await old.warehouse.close();
  }
}

/**
 * Which file a path names: a replaced file is another inode. The inode of a file held open is never
 * reused, so a new file never passes for the one a reader holds. Null while there is no file.
 */
async function identityOf(path: string, warn: (message: string) => void): Promise<string | null> {
  try {
    const { dev, ino } = await stat(path, { bigint: true });
    return `${dev}:${ino}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw unavailable(error, warn);
  }
}

/**
 * Opens the file named when `identity` was read. The identity is read before the open: if the file
 * is replaced in between, the next query sees an identity other than the one recorded and reopens,
 * while the other order could record the new file's identity for the old file and keep it for good.
 */
async function openAt(path: string, identity: string | null, warn: (message: string) => void): Promise<Opened> {
  try {
    const warehouse = await (identity === null ? DuckDBWarehouse.open() : DuckDBWarehouse.open({ path, readOnly: true }));
    return { warehouse, identity, users: 0 };
  } catch (error) {
    throw unavailable(error, warn);
  }
}

/** The error for the caller, once its detail (the file's path, the pid holding it) is in the log. */
function unavailable(error: unknown, warn: (message: string) => void): WarehouseUnavailableError {
  const refusal = error instanceof WarehouseUnavailableError ? error : new WarehouseUnavailableError(error);
  warn(`its DuckDB file cannot be opened: ${refusal.detail}`);
  return refusal;
}
