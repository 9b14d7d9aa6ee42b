import { expect, it } from 'vitest';
import { compile } from '../compiler/compile.js';
import { meta } from '../meta.js';
import { sampleModelFiles } from '../sample/sample.js';
import { SqlTranslationError } from './errors.js';
import { answerSql } from './answer.js';

const cubes = meta(compile(sampleModelFiles()).model).cubes;

/** Odd and hostile SQL: each is translated or refused with a SqlTranslationError, never an unexpected error (a 500 over HTTP). */
const ODD_SQL = [
  '',
  ' ',
  ';',
  'SELECT',
  'SELECT status FROM orders WHERE',
  'SELECT status FROM orders WHERE status',
  'SELECT status FROM orders WHERE 1 = 1',
  "SELECT status FROM orders WHERE 'a' = 'b'",
  'SELECT MEASURE() FROM orders',
  'SELECT MEASURE(1) FROM orders',
  'SELECT MEASURE(count, count) FROM orders',
  'SELECT DATE_TRUNC(created_at) FROM orders',
  'SELECT DATE_TRUNC(1, created_at) FROM orders GROUP BY 1',
  'SELECT COUNT() FROM orders',
  'SELECT COUNT(1) FROM orders',
  'SELECT SUM(*) FROM orders',
  'SELECT status FROM orders ORDER BY -1',
  'SELECT status FROM orders LIMIT 99999999999999999999',
  'SELECT status FROM orders WHERE status IN (NULL)',
  'SELECT status FROM orders WHERE status IS TRUE',
  'SELECT status FROM orders WHERE completed = FALSE',
  'SELECT status FROM orders WHERE EXISTS (SELECT 1)',
  "SELECT status FROM orders WHERE status = ANY(ARRAY['a'])",
  "SELECT status FROM orders WHERE status ~ 'a'",
  "SELECT CASE WHEN status = 'a' THEN 1 END FROM orders",
  'SELECT x.y.z FROM orders',
  'SELECT status FROM db.schema.orders',
  'EXPLAIN SELECT status FROM orders',
  'SHOW TABLES',
  'SET x = 1',
  'CREATE TABLE t (a int)',
  'DROP TABLE orders',
  "SELECT status FROM orders WHERE created_at > CURRENT_DATE - INTERVAL '1 day'",
  'SELECT status FROM orders WHERE status = $$x$$',
  'SELECT status FROM LATERAL orders',
  "SELECT status FROM orders WHERE status IN ('a', 1 + 1)",
  'SELECT status FROM orders WHERE NOT status',
  'SELECT - id FROM orders',
  'SELECT orders.* FROM orders',
  "SELECT status FROM orders WHERE status = '\u0000'",
  "SELECT * FROM read_parquet('x.parquet')",
  "WITH t AS (SELECT status FROM orders GROUP BY 1) SELECT * FROM t, glob('*')",
  "SELECT getenv('HOME')",
  'SELECT 1 FROM (SELECT status FROM orders GROUP BY 1) t WHERE status IN (SELECT city FROM customers GROUP BY 1)',
  'SELECT status COLLATE "C" FROM orders GROUP BY 1',
];

it.each(ODD_SQL.map((sql) => [sql]))('%j is answered or refused with a SQLSTATE', async (sql) => {
  try {
    await answerSql(sql, { model: { cubes }, load: () => Promise.resolve({ data: [] }) });
  } catch (error) {
    expect(error).toBeInstanceOf(SqlTranslationError);
    expect((error as SqlTranslationError).sqlState).toMatch(/^[0-9A-Z]{5}$/);
  }
});
