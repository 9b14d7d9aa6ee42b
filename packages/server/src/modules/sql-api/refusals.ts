import { SqlFailure } from './errors.js';

/** The session's refusals of statements, with PostgreSQL's SQLSTATEs and messages. */
export const transactionAborted = () =>
  new SqlFailure('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
export const duplicate = (what: string, name: string) =>
  new SqlFailure(what === 'cursor' ? '42P03' : '42P05', `${what} "${name}" already exists`);
/** Statements PostgreSQL knows that the SQL API does not run: anything else is a syntax error there. */
const KNOWN = new Set(
  'INSERT UPDATE DELETE MERGE CREATE ALTER DROP TRUNCATE GRANT REVOKE COMMENT VACUUM ANALYZE CLUSTER REINDEX LOCK EXPLAIN PREPARE EXECUTE CALL DO NOTIFY LOAD IMPORT REFRESH SECURITY CHECKPOINT'.split(
    ' ',
  ),
);
export const notAQuery = (word: string) =>
  !KNOWN.has(word)
    ? new SqlFailure('42601', `syntax error at or near "${word}"`)
    : new SqlFailure(
        '0A000',
        `${word || 'This statement'} is not supported: the SQL API answers queries (SELECT, WITH, VALUES, SHOW, COPY (query) TO STDOUT), cursors over them and session commands`,
      );
