import { SqlTranslationError, translateSql as translate, type MetaCube, type SqlTranslation } from '@plinth/semantic';
import { badRequest } from '../../../http/errors.js';

/**
 * SQL one semantic query answers, as the HTTP surfaces that store a query take it: SQL that does
 * not translate is the caller's 400 with the translation's own message, whatever its SQLSTATE (the
 * body has no place for one). Anything else is left as thrown, for the caller to decide what it means there.
 */
export async function translateSql(sql: string, cubes: readonly MetaCube[]): Promise<SqlTranslation> {
  try {
    return await translate(sql, cubes);
  } catch (error) {
    throw error instanceof SqlTranslationError ? badRequest(error.message) : error;
  }
}
