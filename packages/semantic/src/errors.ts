/** A problem with the query itself (unknown member, bad operator, …); the data API answers 400. */
export class QueryError extends Error {
  readonly status = 400;
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}

/** The warehouse did not answer in time or the caller gave up. */
export class QueryTimeoutError extends Error {
  constructor(message = 'Query timed out') {
    super(message);
    this.name = 'QueryTimeoutError';
  }
}

/**
 * A warehouse that cannot be opened: a DuckDB file another process holds for writing, one that is
 * missing, unreadable or damaged. The message is fit for whoever queries; the driver's own words,
 * which name the server's files and other processes' ids, are the `cause`, for the operator's log.
 */
export class WarehouseUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The warehouse is busy or cannot be opened; try again', { cause });
    this.name = 'WarehouseUnavailableError';
  }

  /** What the driver said, for the log. */
  get detail(): string {
    return this.cause instanceof Error ? this.cause.message : String(this.cause);
  }
}
