import { AsyncLocalStorage } from 'node:async_hooks';
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';
import type { Executor } from './executor.js';

/**
 * The transaction open in the current async context. The store's `db` handle consults it when it
 * borrows a connection, so a query issued inside `transaction()` runs in that transaction whether
 * or not the caller passed `trx` along: on PGlite (one session) a query outside it would wait for
 * it forever, on PostgreSQL it would run outside it and break atomicity.
 */
interface Open {
  readonly db: Executor;
  readonly parent: Open | undefined;
  /** Set when the transaction has begun: the driver it runs on, and what the root handle borrows. */
  driver?: ContextDriver;
  connection?: DatabaseConnection;
  shared?: SharedConnection;
  active: boolean;
}

// One storage for the process: each instance costs every promise a lookup while enabled, and a
// test process opens many stores. An `Open` names its store's handle, so stores do not mix.
const context = new AsyncLocalStorage<Open>();

function openFor(db: Executor): Open | undefined {
  for (let open = context.getStore(); open; open = open.parent) if (open.db === db && open.active) return open;
  return undefined;
}

/**
 * Runs `work` in a transaction on `db` (the store's handle), or in the one already open on it in
 * this async context: nested calls join, and only the outermost commits or rolls back. Inside
 * `work`, `db` and everything that uses it run in the transaction; `work` is handed `db` itself
 * (rather than Kysely's transaction object) so that all its queries queue on one connection.
 */
export function transaction<T>(db: Executor, work: (db: Executor) => Promise<T>): Promise<T> {
  if (db.isTransaction || openFor(db)) return work(db);
  const open: Open = { db, parent: context.getStore(), active: true };
  inFlight += 1;
  let running: Promise<T>;
  try {
    running = context.run(open, () => db.transaction().execute(() => work(db)));
  } catch (error) {
    settled(open);
    throw error;
  }
  return running.finally(() => settled(open));
}

/** Transactions begun and not yet settled, in every store of the process. */
let inFlight = 0;

/**
 * While the storage is enabled, Node runs a hook on every promise the process creates (a request
 * makes dozens): measurable on every route (bench/platform.ts). So it is enabled only while some
 * transaction is in flight; `context.run` enables it again for the next one. Once none is, no
 * context can hold an active transaction, and nothing is lost by no longer carrying any.
 */
function settled(open: Open): void {
  open.active = false;
  inFlight -= 1;
  if (inFlight === 0) context.disable();
}

// deadlock_detected, serialization_failure, and the two a concurrent writer can cause between a
// read and a write: a row deleted under us (foreign_key_violation), a row created under us
// (unique_violation). A fresh attempt sees the new state and either succeeds or fails cleanly.
const RETRYABLE = new Set(['40P01', '40001', '23503', '23505']);
const ATTEMPTS = 5;

/** Whether PostgreSQL aborted the work for a reason that a fresh attempt of the whole transaction cures. */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

/**
 * `transaction`, run again from the start when PostgreSQL aborted it for a reason a retry cures;
 * `onRetry` runs first, to drop whatever remembered state may have caused it. Inside a transaction
 * already open it just joins, and the outermost caller owns retries: only it can start over.
 */
export async function transactionWithRetry<T>(db: Executor, work: (trx: Executor) => Promise<T>, onRetry?: () => void): Promise<T> {
  if (inOpenTransaction(db)) return transaction(db, work);
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction(db, work);
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
      onRetry?.();
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}

/** Whether `db` has a transaction open in the current async context. */
export function inOpenTransaction(db: Executor): boolean {
  return db.isTransaction || openFor(db) !== undefined;
}

/**
 * The root handle's view of the open transaction's connection. Its queries run one at a time, as
 * on Kysely's own transaction object: pg refuses a query sent while another runs on the client.
 * The transaction's owner releases the real connection; borrowers release this one, which the
 * driver ignores. A query that outlives the transaction (a promise nobody awaited) fails instead
 * of running on a connection handed back to the pool; once no transaction at all is in flight, the
 * context is no longer carried (`settled`) and such a query runs on a connection of its own.
 */
class SharedConnection implements DatabaseConnection {
  private tail: Promise<unknown> = Promise.resolve();
  constructor(private readonly open: Open) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const run = this.tail.then(() => {
      if (!this.open.active) throw new Error('A query ran after its transaction ended');
      return this.open.connection!.executeQuery<R>(compiled);
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported inside transaction()');
  }
}

/**
 * Wraps a driver so that, inside `transaction()`, a connection asked of the root handle is the
 * transaction's. Outside one, the cost per query is one `getStore()`: no allocation.
 */
class ContextDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    for (let open = context.getStore(); open; open = open.parent) {
      if (open.driver === this && open.active) return Promise.resolve(open.shared!);
    }
    return this.inner.acquireConnection();
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof SharedConnection) return Promise.resolve();
    return this.inner.releaseConnection(connection);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (connection instanceof SharedConnection) {
      // `db.transaction()` called directly inside transaction(): BEGIN would be a no-op with a
      // warning and its COMMIT would end the outer transaction early.
      return Promise.reject(new Error('A transaction is already open here: use transaction() from store/transaction.ts'));
    }
    const open = context.getStore();
    if (open && open.driver === undefined && open.active) {
      open.driver = this;
      open.connection = connection;
      open.shared = new SharedConnection(open);
    }
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.end(connection);
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.end(connection);
    return this.inner.rollbackTransaction(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  /** From COMMIT or ROLLBACK on, the root handle no longer borrows the connection. */
  private end(connection: DatabaseConnection): void {
    const open = context.getStore();
    if (open?.connection === connection) open.active = false;
  }
}

/** The store's dialect with transactions carried by the async context (see `transaction`). */
export function inContext(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new ContextDriver(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
