import type { Dialect } from '../dialects/dialect.js';

export interface QueryOptions {
  /** Abandon and cancel the query on the warehouse after this long. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface QueryResult {
  /** Values as the driver gives them: numbers, or strings for big integers and decimals. */
  readonly rows: ReadonlyArray<Record<string, unknown>>;
}

/** One warehouse connection (or pool). A further warehouse implements this plus a Dialect. */
export interface Warehouse {
  readonly dialect: Dialect;
  /** Runs one statement (DuckDB rejects several; PostgreSQL does when there are parameters). */
  query(sql: string, params: readonly unknown[], options?: QueryOptions): Promise<QueryResult>;
  /**
   * Runs one statement and gives its rows in batches as the warehouse produces them, holding one
   * batch at a time: the next is read only when the consumer asks. Ending the iteration early
   * (`return()`), the signal aborting or an error release the warehouse's cursor and connection.
   * `timeoutMs` bounds each batch's wait, not the whole stream, whose pace is the consumer's.
   */
  stream?(sql: string, params: readonly unknown[], options?: StreamOptions): AsyncIterable<ReadonlyArray<Record<string, unknown>>>;
  close(): Promise<void>;
}

export interface StreamOptions extends QueryOptions {
  /** Rows per batch (a PostgreSQL FETCH; DuckDB gives its own vectors of up to 2,048 rows). */
  readonly batchRows?: number;
}

export const DEFAULT_BATCH_ROWS = 1000;

export const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Runs `run`, calling `cancel` and rejecting when the timeout passes or the signal aborts.
 * The promise settles once, whichever comes first.
 */
export async function withCancellation<T>(
  run: () => Promise<T>,
  cancel: () => void,
  options: QueryOptions | undefined,
  onTimeout: () => Error,
  onAbort: () => Error,
): Promise<T> {
  const signal = options?.signal;
  if (signal?.aborted) throw onAbort();
  const timeoutMs = options?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  let abortListener: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      cancel();
      reject(onTimeout());
    }, timeoutMs);
    abortListener = () => {
      cancel();
      reject(onAbort());
    };
    signal?.addEventListener('abort', abortListener, { once: true });
  });
  try {
    return await Promise.race([run(), stop]);
  } finally {
    clearTimeout(timer);
    if (abortListener) signal?.removeEventListener('abort', abortListener);
  }
}
