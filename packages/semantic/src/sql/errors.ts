/**
 * The PostgreSQL condition of each way SQL can fail to translate, by its SQLSTATE: a PostgreSQL-wire
 * client reads the code of an ErrorResponse to tell a typo from an unsupported construct, and the
 * HTTP SQL API answers every one of them as a 400 with the message alone.
 */
export const sqlStates = {
  syntax_error: '42601',
  undefined_table: '42P01',
  undefined_column: '42703',
  ambiguous_column: '42702',
  undefined_parameter: '42P02',
  undefined_function: '42883',
  invalid_schema_name: '3F000',
  grouping_error: '42803',
  invalid_column_reference: '42P10',
  datatype_mismatch: '42804',
  feature_not_supported: '0A000',
  invalid_parameter_value: '22023',
  program_limit_exceeded: '54000',
} as const;

export type SqlErrorCondition = keyof typeof sqlStates;
export type SqlState = (typeof sqlStates)[SqlErrorCondition];

/** SQL the translation cannot turn into a Cube query; the message names the construct, as PostgreSQL's do. */
export class SqlTranslationError extends Error {
  /** The five-character SQLSTATE of `condition`, as an ErrorResponse's `C` field carries it. */
  readonly sqlState: SqlState;
  constructor(
    readonly condition: SqlErrorCondition,
    message: string,
  ) {
    super(message);
    this.name = 'SqlTranslationError';
    this.sqlState = sqlStates[condition];
  }
}

/** A construct of SQL the translation does not express as a Cube query (joins, subqueries, functions, ...). */
export const notSupported = (message: string) => new SqlTranslationError('feature_not_supported', message);
/** SQL that is malformed or incomplete for what it asks (an unparsable statement, a call with wrong arguments). */
export const syntaxError = (message: string) => new SqlTranslationError('syntax_error', message);
/** A column used where its kind cannot be: a dimension where a measure is expected, a non-time for DATE_TRUNC. */
export const mismatch = (message: string) => new SqlTranslationError('datatype_mismatch', message);
