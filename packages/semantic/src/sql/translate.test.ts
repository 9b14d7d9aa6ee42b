import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/compile.js';
import { meta } from '../meta.js';
import { sampleModelFiles } from '../sample/sample.js';
import { SqlTranslationError, sqlStates, type SqlErrorCondition } from './errors.js';
import { translateSql } from './translate.js';
import { answerSql, type SqlLoadResult } from './answer.js';

const cubes = meta(compile(sampleModelFiles()).model).cubes;
const translate = (sql: string) => translateSql(sql, cubes);

/** The refusals come before any data is read (except the engine's, which reads empty results). */
const neverLoaded = (): Promise<SqlLoadResult> => Promise.resolve({ data: [] });

describe('SQL → Cube query', () => {
  it.each([
    [
      'dimensions, MEASURE and GROUP BY ordinals',
      'SELECT status, MEASURE(count) FROM orders GROUP BY 1',
      { measures: ['orders.count'], dimensions: ['orders.status'] },
    ],
    [
      'an alias qualifying columns, GROUP BY by name',
      'SELECT o.status, MEASURE(o.count) FROM orders AS o GROUP BY o.status',
      { measures: ['orders.count'], dimensions: ['orders.status'] },
    ],
    [
      'quoted and upper-case identifiers',
      'SELECT "status", MEASURE(ORDERS.COUNT) FROM "orders" GROUP BY "status"',
      { measures: ['orders.count'], dimensions: ['orders.status'] },
    ],
    [
      'measures alone need no GROUP BY',
      'SELECT MEASURE(count), MEASURE(customer_count) FROM orders',
      { measures: ['orders.count', 'orders.customer_count'] },
    ],
    ['COUNT(*) is the count measure', 'SELECT COUNT(*) FROM orders', { measures: ['orders.count'] }],
    ['so is COUNT(1)', 'SELECT COUNT(1) FROM orders', { measures: ['orders.count'] }],
    [
      'aggregates matching the measure type',
      'SELECT SUM(total_quantity), AVG(avg_price), MIN(min_price), MAX(max_price), COUNT(DISTINCT order_count) FROM line_items',
      {
        measures: [
          'line_items.total_quantity',
          'line_items.avg_price',
          'line_items.min_price',
          'line_items.max_price',
          'line_items.order_count',
        ],
      },
    ],
    [
      'DATE_TRUNC is a time dimension with granularity',
      "SELECT DATE_TRUNC('month', created_at) AS month, MEASURE(count) FROM orders GROUP BY 1 ORDER BY month",
      {
        measures: ['orders.count'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
        order: [['orders.created_at', 'asc']],
      },
    ],
    [
      'a view, its prefixed members',
      'SELECT orders_status, MEASURE(revenue) FROM sales GROUP BY orders_status ORDER BY 2 DESC LIMIT 3 OFFSET 1',
      { measures: ['sales.revenue'], dimensions: ['sales.orders_status'], order: [['sales.revenue', 'desc']], limit: 3, offset: 1 },
    ],
    ['dimensions alone without GROUP BY are row-level', 'SELECT status FROM orders', { dimensions: ['orders.status'], ungrouped: true }],
    ['DISTINCT dimensions are grouped', 'SELECT DISTINCT status FROM orders', { dimensions: ['orders.status'] }],
    [
      'ORDER BY an aggregate of the select list',
      'SELECT status, COUNT(*) FROM orders GROUP BY status ORDER BY COUNT(*) DESC',
      {
        measures: ['orders.count'],
        dimensions: ['orders.status'],
        order: [['orders.count', 'desc']],
      },
    ],
  ])('%s', async (_name, sql, expected) => {
    expect((await translate(sql)).query).toMatchObject({ measures: [], dimensions: [], timeDimensions: [], filters: [], ...expected });
  });

  it.each([
    [
      '=, <>, IN, NOT IN',
      "status = 'completed' AND status <> 'x' AND status IN ('a', 'b') AND id NOT IN (1, 2)",
      [
        { member: 'orders.status', operator: 'equals', values: ['completed'] },
        { member: 'orders.status', operator: 'notEquals', values: ['x'] },
        { member: 'orders.status', operator: 'equals', values: ['a', 'b'] },
        { member: 'orders.id', operator: 'notEquals', values: ['1', '2'] },
      ],
    ],
    [
      'numbers compare; a literal on the left flips',
      'id > 5 AND id <= 9 AND 3 < customer_id',
      [
        { member: 'orders.id', operator: 'gt', values: ['5'] },
        { member: 'orders.id', operator: 'lte', values: ['9'] },
        { member: 'orders.customer_id', operator: 'gt', values: ['3'] },
      ],
    ],
    [
      'times compare as dates',
      "created_at >= '2024-01-01' AND created_at < TIMESTAMP '2024-02-01'",
      [
        { member: 'orders.created_at', operator: 'afterOrOnDate', values: ['2024-01-01'] },
        { member: 'orders.created_at', operator: 'beforeDate', values: ['2024-02-01'] },
      ],
    ],
    [
      'BETWEEN on a number is gte and lte',
      'id BETWEEN 1 AND 3',
      [
        {
          and: [
            { member: 'orders.id', operator: 'gte', values: ['1'] },
            { member: 'orders.id', operator: 'lte', values: ['3'] },
          ],
        },
      ],
    ],
    [
      'LIKE patterns',
      "status LIKE '%pro%' AND status ILIKE 'ship%' AND status NOT LIKE '%ed' AND status LIKE 'a\\_b'",
      [
        { member: 'orders.status', operator: 'contains', values: ['pro'] },
        { member: 'orders.status', operator: 'startsWith', values: ['ship'] },
        { member: 'orders.status', operator: 'notEndsWith', values: ['ed'] },
        { member: 'orders.status', operator: 'equals', values: ['a_b'] },
      ],
    ],
    [
      'IS NULL, IS NOT NULL',
      'status IS NULL AND created_at IS NOT NULL',
      [
        { member: 'orders.status', operator: 'notSet' },
        { member: 'orders.created_at', operator: 'set' },
      ],
    ],
    [
      'OR nests',
      "(status = 'a' OR status = 'b') AND id = 1",
      [
        {
          or: [
            { member: 'orders.status', operator: 'equals', values: ['a'] },
            { member: 'orders.status', operator: 'equals', values: ['b'] },
          ],
        },
        { member: 'orders.id', operator: 'equals', values: ['1'] },
      ],
    ],
  ])('WHERE: %s', async (_name, where, filters) => {
    expect((await translate(`SELECT MEASURE(count) FROM orders WHERE ${where}`)).query.filters).toEqual(filters);
  });

  it('BETWEEN on a time dimension is its date range, with the granularity selected', async () => {
    const range = "created_at BETWEEN '2024-01-01' AND CAST('2024-03-31' AS DATE)";
    const alone = (await translate(`SELECT MEASURE(count) FROM orders WHERE ${range}`)).query;
    expect(alone.filters).toEqual([]);
    expect(alone.timeDimensions).toEqual([{ dimension: 'orders.created_at', dateRange: ['2024-01-01', '2024-03-31'] }]);
    const monthly = (await translate(`SELECT DATE_TRUNC('month', created_at), MEASURE(count) FROM orders WHERE ${range} GROUP BY 1`)).query;
    expect(monthly.timeDimensions).toEqual([
      { dimension: 'orders.created_at', granularity: 'month', dateRange: ['2024-01-01', '2024-03-31'] },
    ]);
  });

  it('cubes joined by CROSS JOIN or __cubeJoinField are one query over both', async () => {
    const expected = { measures: ['orders.count'], dimensions: ['customers.city'] };
    for (const sql of [
      'SELECT c.city, MEASURE(o.count) FROM orders o CROSS JOIN customers c GROUP BY 1',
      'SELECT c.city, COUNT(*) FROM orders o LEFT JOIN customers c ON o.__cubeJoinField = c.__cubeJoinField GROUP BY 1',
      'SELECT city, SUM(o.count) FROM orders o, customers GROUP BY city',
    ]) {
      expect((await translate(sql)).query).toMatchObject(expected);
    }
  });

  it('parameters are filter values and LIMIT counts', async () => {
    const { query } = await translateSql('SELECT status FROM orders WHERE status = $1 GROUP BY 1 LIMIT $2', cubes, ['completed', 2]);
    expect(query).toMatchObject({ filters: [{ member: 'orders.status', operator: 'equals', values: ['completed'] }], limit: 2 });
  });

  it('a segment is a condition; HAVING filters measures', async () => {
    const { query } = await translate(
      "SELECT status, MEASURE(count) FROM orders WHERE completed AND status <> 'x' GROUP BY 1 HAVING MEASURE(count) > 2",
    );
    expect(query.segments).toEqual(['orders.completed']);
    expect(query.filters).toEqual([
      { member: 'orders.status', operator: 'notEquals', values: ['x'] },
      { member: 'orders.count', operator: 'gt', values: ['2'] },
    ]);
    expect((await translate('SELECT MEASURE(count) FROM orders WHERE completed = TRUE')).query.segments).toEqual(['orders.completed']);
    expect((await translate('SELECT MEASURE(count) FROM orders WHERE completed IS TRUE')).query.segments).toEqual(['orders.completed']);
  });

  it('columns: names (alias, column, function) and Arrow types', async () => {
    const { columns } = await translate(
      "SELECT status AS s, id, created_at, DATE_TRUNC('day', created_at), MEASURE(count), COUNT(*), MEASURE(completed_share), is_completed FROM orders GROUP BY 1, 2, 3, 4, 8",
    );
    expect(columns.map((c) => ({ name: c.name, columnType: c.columnType, key: c.key }))).toEqual([
      { name: 's', columnType: 'Utf8', key: 'orders.status' },
      { name: 'id', columnType: 'Float64', key: 'orders.id' },
      { name: 'created_at', columnType: 'Timestamp(Nanosecond, None)', key: 'orders.created_at' },
      { name: "date_trunc('day', orders.created_at)", columnType: 'Timestamp(Nanosecond, None)', key: 'orders.created_at.day' },
      { name: 'measure(orders.count)', columnType: 'Int64', key: 'orders.count' },
      { name: 'count(*)', columnType: 'Int64', key: 'orders.count' },
      { name: 'measure(orders.completed_share)', columnType: 'Float64', key: 'orders.completed_share' },
      { name: 'is_completed', columnType: 'Boolean', key: 'orders.is_completed' },
    ]);
  });
});

describe('SQL the translation refuses, with an error naming the construct and its SQLSTATE', () => {
  it.each([
    ['not SQL', 'SELEC nope', /could not be parsed: syntax error at or near "SELEC"/, 'syntax_error'],
    ['two statements', 'SELECT status FROM orders; SELECT id FROM orders', /one statement/, 'feature_not_supported'],
    ['DML', "DELETE FROM orders WHERE status = 'x'", /DELETE statements are not supported/, 'feature_not_supported'],
    ['INSERT', 'INSERT INTO orders (id) VALUES (1)', /INSERT statements/, 'feature_not_supported'],
    ['SET', 'SET search_path = public', /SET statements/, 'feature_not_supported'],
    [
      'a join on columns',
      'SELECT o.status FROM orders o JOIN customers c ON o.customer_id = c.id',
      /JOIN ... ON takes only a.__cubeJoinField = b.__cubeJoinField/,
      'feature_not_supported',
    ],
    ['a FULL JOIN', 'SELECT o.status FROM orders o FULL JOIN customers c ON TRUE', /FULL JOIN is not supported/, 'feature_not_supported'],
    ['a cube joined with a subquery', 'SELECT o.status FROM orders o CROSS JOIN (SELECT 1) t', /cannot also read/, 'feature_not_supported'],
    ['a subquery in IN', 'SELECT MEASURE(count) FROM orders WHERE id IN (SELECT id FROM orders)', /Subqueries/, 'feature_not_supported'],
    [
      'a subquery in a select list over a cube',
      'SELECT status, (SELECT 1) FROM orders GROUP BY 1',
      /Subqueries inside a query over a cube/,
      'feature_not_supported',
    ],
    ['a table function', "SELECT * FROM read_csv('/etc/passwd')", /Functions in FROM are not supported/, 'feature_not_supported'],
    [
      'a table function in a subquery',
      "SELECT (SELECT count(*) FROM read_csv('/etc/passwd'))",
      /Functions in FROM/,
      'feature_not_supported',
    ],
    ['an unknown table', 'SELECT x FROM nope', /Table nope does not exist/, 'undefined_table'],
    ['an unknown table beside a CTE', 'WITH t AS (SELECT 1 AS a) SELECT a FROM t, nope', /Table nope does not exist/, 'undefined_table'],
    ['an unknown column', 'SELECT nope FROM orders', /Column nope does not exist in orders/, 'undefined_column'],
    [
      'an ambiguous column',
      'SELECT id FROM orders CROSS JOIN customers GROUP BY 1',
      /Column reference id is ambiguous/,
      'ambiguous_column',
    ],
    ['another table qualifier', 'SELECT customers.city FROM orders', /Unknown table customers/, 'undefined_table'],
    ['another schema', 'SELECT status FROM other.orders', /Schema other/, 'invalid_schema_name'],
    ['SELECT * with GROUP BY', 'SELECT * FROM orders GROUP BY status', /SELECT \* with GROUP BY/, 'feature_not_supported'],
    ['a bare measure', 'SELECT count FROM orders', /must be selected as MEASURE\(count\)/, 'grouping_error'],
    [
      'MEASURE of a dimension',
      'SELECT MEASURE(status) FROM orders',
      /MEASURE takes a measure, but orders.status is a dimension/,
      'datatype_mismatch',
    ],
    ['an aggregate not matching the measure', 'SELECT AVG(count) FROM orders', /AVG\(orders.count\) does not match/, 'datatype_mismatch'],
    ['an aggregate of a dimension', 'SELECT SUM(id) FROM orders', /SUM takes a measure/, 'datatype_mismatch'],
    ['a window over raw rows', 'SELECT COUNT(*) OVER () FROM orders', /Window functions over a cube's rows/, 'feature_not_supported'],
    [
      'an unknown granularity',
      "SELECT DATE_TRUNC('decade', created_at) FROM orders GROUP BY 1",
      /granularity decade/,
      'invalid_parameter_value',
    ],
    ['DATE_TRUNC of a non-time', "SELECT DATE_TRUNC('day', status) FROM orders GROUP BY 1", /not one/, 'datatype_mismatch'],
    [
      'a dimension missing from GROUP BY',
      'SELECT status, id, MEASURE(count) FROM orders GROUP BY status',
      /id must appear in GROUP BY/,
      'grouping_error',
    ],
    [
      'dimensions with measures without GROUP BY',
      'SELECT status, MEASURE(count) FROM orders',
      /status must appear in GROUP BY/,
      'grouping_error',
    ],
    ['GROUP BY an aggregate', 'SELECT status, MEASURE(count) FROM orders GROUP BY 1, 2', /refers to an aggregate/, 'grouping_error'],
    [
      'GROUP BY an expression',
      'SELECT MEASURE(count) FROM orders GROUP BY upper(status)',
      /GROUP BY over a cube takes dimension columns/,
      'feature_not_supported',
    ],
    ['GROUP BY ordinal out of range', 'SELECT status FROM orders GROUP BY 3', /GROUP BY 3 is not a column/, 'invalid_column_reference'],
    ['ROLLUP', 'SELECT status, MEASURE(count) FROM orders GROUP BY ROLLUP(status)', /GROUP BY ROLLUP/, 'feature_not_supported'],
    [
      'ORDER BY a column not grouped',
      'SELECT MEASURE(count) FROM orders ORDER BY status',
      /status must appear in GROUP BY/,
      'grouping_error',
    ],
    ['a measure in WHERE', 'SELECT status FROM orders WHERE count > 1 GROUP BY 1', /cannot be filtered in WHERE/, 'grouping_error'],
    ['a dimension in HAVING', "SELECT MEASURE(count) FROM orders HAVING status = 'x'", /status must appear in GROUP BY/, 'grouping_error'],
    [
      'a LIKE pattern with inner wildcards',
      "SELECT MEASURE(count) FROM orders WHERE status LIKE 'a%b'",
      /LIKE pattern 'a%b'/,
      'feature_not_supported',
    ],
    ['= NULL', 'SELECT MEASURE(count) FROM orders WHERE status = NULL', /IS NULL/, 'feature_not_supported'],
    [
      'column compared with column',
      'SELECT MEASURE(count) FROM orders WHERE id = customer_id',
      /column customer_id is not supported/,
      'feature_not_supported',
    ],
    ['NOT (...)', "SELECT MEASURE(count) FROM orders WHERE NOT (status = 'x')", /NOT \(\.\.\.\)/, 'feature_not_supported'],
    [
      'a segment under OR',
      "SELECT MEASURE(count) FROM orders WHERE completed OR status = 'x'",
      /Segment orders.completed can only/,
      'feature_not_supported',
    ],
    ['a fractional LIMIT', 'SELECT status FROM orders LIMIT 1.5', /LIMIT and OFFSET/, 'invalid_parameter_value'],
    ['a hidden member', 'SELECT email FROM customers', /Column email does not exist/, 'undefined_column'],
    ['an empty statement', ';', /no statement/, 'syntax_error'],
    ['FILTER on an aggregate', 'SELECT COUNT(*) FILTER (WHERE id > 1) FROM orders', /FILTER/, 'feature_not_supported'],
    ['TABLESAMPLE', 'SELECT status FROM orders TABLESAMPLE SYSTEM (10)', /TABLESAMPLE/, 'feature_not_supported'],
    ['FOR UPDATE', 'SELECT status FROM orders FOR UPDATE', /FOR UPDATE/, 'feature_not_supported'],
    ['a cast of a column', "SELECT MEASURE(count) FROM orders WHERE status::text = 'a'", /cast is not supported/, 'feature_not_supported'],
    ['a missing parameter', 'SELECT MEASURE(count) FROM orders WHERE status = $2', /There is no parameter \$2/, 'undefined_parameter'],
    [
      'SQL the engine rejects',
      'SELECT status, MEASURE(count) + status FROM orders GROUP BY 1',
      /Post-processing failed/,
      'undefined_function',
    ],
    [
      'an unknown column of a result',
      'SELECT nope FROM (SELECT status FROM orders GROUP BY 1) t',
      /Post-processing failed.*nope/,
      'undefined_column',
    ],
    ['an unknown function over results', 'SELECT no_such_fn(status) FROM orders GROUP BY status', /no_such_fn/, 'undefined_function'],
  ])('%s', async (_name, sql, message, condition) => {
    const error = await answerSql(sql, { model: { cubes }, params: ['x'], load: neverLoaded }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SqlTranslationError);
    expect((error as SqlTranslationError).message).toMatch(message);
    expect((error as SqlTranslationError).condition).toBe(condition);
    expect((error as SqlTranslationError).sqlState).toBe(sqlStates[condition as SqlErrorCondition]);
  });

  it('translateSql, for surfaces that store one semantic query, refuses SQL that needs post-processing', async () => {
    await expect(translate('SELECT status, MEASURE(count) * 2 FROM orders GROUP BY 1')).rejects.toMatchObject({
      condition: 'feature_not_supported',
      message: expect.stringMatching(/needs post-processing/),
    });
  });
});
