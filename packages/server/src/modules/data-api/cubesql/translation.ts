import { SqlTranslationError, translateSql as translate, type MetaCube, type SqlTranslation } from '@plinth/semantic';
import { badRequest } from '../../../http/errors.js';

/**
 * The SQL API's translation as the HTTP surfaces answer it: SQL that does not translate is the
 * caller's 400 with the translation's own message, whatever its SQLSTATE (the body has no place
 * for one). Anything else is left as thrown, for the caller to decide what it means there.
 */
export function translateSql(sql: string, cubes: readonly MetaCube[]): SqlTranslation {
  try {
    return translate(sql, cubes);
  } catch (error) {
    throw error instanceof SqlTranslationError ? badRequest(error.message) : error;
  }
}
