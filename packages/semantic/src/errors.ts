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
