import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from './compiler/compile.js';
import { QueryError } from './errors.js';
import { load } from './load.js';
import type { Caller, DataModel } from './model.js';
import { planQuery } from './planner/plan.js';
import type { Query } from './planner/query.js';
import { caller, compileAccessModel } from './test-support/access-model.js';
import { sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

const INJECTION = "shipped' OR '1'='1'; DROP TABLE orders; --";

/** Cubes whose SQL reads the security context, the compile context and the query's filters. */
function contextCubes(table: (name: string) => string): string {
  const orders = table('orders');
  const cube = (name: string, where: string): string => `
  - name: ${name}
    sql: >
      SELECT * FROM ${orders} WHERE ${where}
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
      - { name: customer_id, sql: customer_id, type: number }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - { name: count, type: count }`;
  return `cubes:${[
    cube('sc_filter', "{SECURITY_CONTEXT.status.filter('status')}"),
    cube('sc_required', "{SECURITY_CONTEXT.status.requiredFilter('status')}"),
    cube('sc_lambda', `{SECURITY_CONTEXT.statuses.filter(lambda values: f"status IN ({values})")}`),
    cube('sc_value', 'customer_id = {securityContext.customer_id}'),
    cube('sc_unsafe', 'status = {SECURITY_CONTEXT.status.unsafeValue()}'),
    cube('cc_value', 'status = {COMPILE_CONTEXT.securityContext.default_status}'),
    cube('fp_single', "{FILTER_PARAMS.fp_single.status.filter('status')} AND {FILTER_PARAMS.fp_single.created_at.filter('created_at')}"),
    cube(
      'fp_group',
      "{FILTER_GROUP(FILTER_PARAMS.fp_group.status.filter('status'), FILTER_PARAMS.fp_group.customer_id.filter('customer_id'))}",
    ),
    cube('fp_lone', "{FILTER_PARAMS.fp_lone.status.filter('status')}"),
    cube(
      'fp_lambda',
      `{FILTER_PARAMS.fp_lambda.created_at.filter(lambda start, finish: f"created_at >= CAST({start} AS TIMESTAMP) AND created_at <= CAST({finish} AS TIMESTAMP)")}`,
    ),
  ].join('')}
  - name: sc_dimension
    sql_table: '${orders}'
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: mine, sql: "{CUBE}.customer_id = {securityContext.customer_id}", type: boolean }
    measures:
      - { name: count, type: count }
      - { name: mine_count, type: count, filters: [{ sql: "{CUBE}.customer_id = {securityContext.customer_id}" }] }
  - name: cc_table
    sql_table: '${table('')}{COMPILE_CONTEXT.securityContext.table}'
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
    measures:
      - { name: count, type: count }
views:
  - name: fp_view
    cubes:
      - join_path: fp_single
        includes: [count, status]
`;
}

describe.each(sampleTargets())('security context, COMPILE_CONTEXT and FILTER_PARAMS in model SQL on $name', (target) => {
  let db: SampleDb;
  let model: DataModel;
  const compileContext = { securityContext: { default_status: 'cancelled', table: 'orders' } };
  beforeAll(async () => {
    db = await target.open();
    model = compileAccessModel(db, contextCubes(db.table), compileContext);
  });
  afterAll(async () => {
    await db?.close();
  });

  const count = async (where: string): Promise<number> =>
    Number(Object.values((await db.warehouse.query(`SELECT count(*) FROM ${db.table('orders')} WHERE ${where}`, [])).rows[0] ?? {})[0]);
  const engineCount = async (cube: string, who: Caller, query: Partial<Query> = {}): Promise<number> => {
    const response = await load(model, { measures: [`${cube}.count`], ...query }, { warehouse: db.warehouse, caller: who });
    return Number(response.data[0]?.[`${cube}.count`]);
  };
  const sc = (securityContext: Record<string, unknown>): Caller => caller([], securityContext);

  describe('SECURITY_CONTEXT.x.filter(column)', () => {
    it.each([
      { name: 'a value', context: { status: 'shipped' }, where: "status = 'shipped'" },
      { name: 'a list', context: { status: ['shipped', 'returned'] }, where: "status IN ('shipped', 'returned')" },
      { name: 'an empty list (no rows)', context: { status: [] }, where: '1 = 0' },
      // Cube writes `1 = 1` for a value that is not set: every row (use requiredFilter to insist).
      { name: 'no value (every row, as in Cube)', context: {}, where: '1 = 1' },
      { name: 'an injection attempt (a parameter, no rows)', context: { status: INJECTION }, where: '1 = 0' },
    ])('with $name', async ({ context, where }) => {
      expect(await engineCount('sc_filter', sc(context))).toBe(await count(where));
    });

    it('requiredFilter refuses a query without the value, with Cube’s message', async () => {
      expect(await engineCount('sc_required', sc({ status: 'completed' }))).toBe(await count("status = 'completed'"));
      await expect(engineCount('sc_required', sc({}))).rejects.toThrow(new QueryError('Filter for status is required'));
    });

    it('the lambda form receives the values as parameters', async () => {
      expect(await engineCount('sc_lambda', sc({ statuses: ['processing', 'cancelled'] }))).toBe(
        await count("status IN ('processing', 'cancelled')"),
      );
      expect(await engineCount('sc_lambda', sc({ statuses: [] }))).toBe(0);
      expect(await engineCount('sc_lambda', sc({ statuses: 'shipped' }))).toBe(await count("status = 'shipped'"));
      const plan = planQuery(
        model,
        { measures: ['sc_lambda.count'] },
        { dialect: db.warehouse.dialect, caller: sc({ statuses: [INJECTION] }) },
      );
      expect(plan.sql).not.toContain('DROP');
      expect(plan.params).toContain(INJECTION);
    });
  });

  describe('securityContext.x and SECURITY_CONTEXT.x.unsafeValue(): values bound as parameters', () => {
    it('reads the value, never splicing it into SQL', async () => {
      expect(await engineCount('sc_value', sc({ customer_id: 7 }))).toBe(await count('customer_id = 7'));
      expect(await engineCount('sc_unsafe', sc({ status: 'returned' }))).toBe(await count("status = 'returned'"));
      expect(await engineCount('sc_unsafe', sc({ status: INJECTION }))).toBe(0);
      const plan = planQuery(
        model,
        { measures: ['sc_unsafe.count'] },
        { dialect: db.warehouse.dialect, caller: sc({ status: INJECTION }) },
      );
      expect(plan.sql).not.toContain('DROP');
      expect(plan.params).toContain(INJECTION);
      expect(await count('1 = 1')).toBeGreaterThan(0);
    });

    it('in member SQL too: a dimension and a measure filter', async () => {
      const response = await load(
        model,
        { measures: ['sc_dimension.count', 'sc_dimension.mine_count'], dimensions: ['sc_dimension.mine'] },
        { warehouse: db.warehouse, caller: sc({ customer_id: 3 }) },
      );
      const rows = response.data.map((row) => [
        row['sc_dimension.mine'],
        Number(row['sc_dimension.count']),
        Number(row['sc_dimension.mine_count']),
      ]);
      const mine = await count('customer_id = 3');
      expect(rows.sort()).toEqual([
        [false, await count('customer_id <> 3'), 0],
        [true, mine, mine],
      ]);
    });

    it('a value that is not set, or is not a scalar, is an error', async () => {
      await expect(engineCount('sc_value', sc({}))).rejects.toThrow(
        new QueryError('securityContext.customer_id is used by the data model but not set in the security context'),
      );
      await expect(engineCount('sc_unsafe', sc({ status: { nested: true } }))).rejects.toThrow(QueryError);
    });
  });

  describe('COMPILE_CONTEXT', () => {
    it('in sql: a compile-time value, bound as a parameter', async () => {
      expect(await engineCount('cc_value', sc({}))).toBe(await count("status = 'cancelled'"));
      const plan = planQuery(model, { measures: ['cc_value.count'] }, { dialect: db.warehouse.dialect, caller: sc({}) });
      expect(plan.params).toContain('cancelled');
      expect(plan.sql).not.toContain('cancelled');
    });

    it('in sql_table: an identifier-safe value is written into the table name', async () => {
      expect(await engineCount('cc_table', sc({}))).toBe(await count('1 = 1'));
    });
  });

  describe('FILTER_PARAMS and FILTER_GROUP', () => {
    it.each([
      { name: 'no filter on the member: 1 = 1', query: {}, where: '1 = 1' },
      {
        name: 'equals',
        query: { filters: [{ member: 'fp_single.status', operator: 'equals', values: ['shipped'] }] },
        where: "status = 'shipped'",
      },
      {
        name: 'a date range from timeDimensions',
        query: { timeDimensions: [{ dimension: 'fp_single.created_at', dateRange: ['2023-03-01', '2023-05-31'] }] },
        where: "created_at >= TIMESTAMP '2023-03-01 00:00:00' AND created_at < TIMESTAMP '2023-06-01 00:00:00'",
      },
      {
        name: 'both members',
        query: {
          filters: [{ member: 'fp_single.status', operator: 'notEquals', values: ['completed'] }],
          timeDimensions: [{ dimension: 'fp_single.created_at', dateRange: ['2024-01-01', '2024-01-31'] }],
        },
        where: "status <> 'completed' AND created_at >= TIMESTAMP '2024-01-01 00:00:00' AND created_at < TIMESTAMP '2024-02-01 00:00:00'",
      },
    ])('$name, pushed into the cube’s SQL with the same answer as hand-written SQL', async ({ query, where }) => {
      expect(await engineCount('fp_single', caller([]), query as Partial<Query>)).toBe(await count(where));
    });

    it('the pushed-down condition sits inside the cube’s SQL, its values bound', async () => {
      const plan = planQuery(
        model,
        { measures: ['fp_single.count'], filters: [{ member: 'fp_single.status', operator: 'equals', values: [INJECTION] }] },
        { dialect: db.warehouse.dialect, caller: caller([]) },
      );
      expect(plan.sql).toMatch(/FROM \(SELECT \* FROM .*orders WHERE \(status = \$\d+\) AND 1 = 1/);
      expect(plan.sql).not.toContain('DROP');
      expect(
        await engineCount('fp_single', caller([]), { filters: [{ member: 'fp_single.status', operator: 'equals', values: [INJECTION] }] }),
      ).toBe(0);
    });

    it('an `or` with another member is not pushed by FILTER_PARAMS alone, but is by FILTER_GROUP', async () => {
      const or = {
        or: [
          { member: 'fp_lone.status', operator: 'equals', values: ['returned'] },
          { member: 'fp_lone.customer_id', operator: 'lt', values: ['10'] },
        ],
      };
      const where = "status = 'returned' OR customer_id < 10";
      expect(await engineCount('fp_lone', caller([]), { filters: [or as never] })).toBe(await count(where));
      const lone = planQuery(
        model,
        { measures: ['fp_lone.count'], filters: [or as never] },
        { dialect: db.warehouse.dialect, caller: caller([]) },
      );
      expect(lone.sql).toMatch(/orders WHERE 1 = 1/);
      const grouped = JSON.parse(JSON.stringify(or).replace(/fp_lone/g, 'fp_group')) as never;
      expect(await engineCount('fp_group', caller([]), { filters: [grouped] })).toBe(await count(where));
      const group = planQuery(
        model,
        { measures: ['fp_group.count'], filters: [grouped] },
        { dialect: db.warehouse.dialect, caller: caller([]) },
      );
      expect(group.sql).toMatch(/orders WHERE \(\(status = \$\d+\) OR \(customer_id < /);
    });

    it('a filter on a view member is pushed into the SQL of the cube behind it', async () => {
      const filters = [{ member: 'fp_view.status', operator: 'equals' as const, values: ['processing'] }];
      expect(await engineCount('fp_view', caller([]), { filters })).toBe(await count("status = 'processing'"));
      const plan = planQuery(model, { measures: ['fp_view.count'], filters }, { dialect: db.warehouse.dialect, caller: caller([]) });
      expect(plan.sql).toMatch(/orders WHERE \(status = \$\d+\) AND 1 = 1/);
    });

    it('the lambda form receives the range bounds as parameters', async () => {
      const query = {
        timeDimensions: [{ dimension: 'fp_lambda.created_at', dateRange: ['2023-07-01', '2023-07-15'] as [string, string] }],
      };
      expect(await engineCount('fp_lambda', caller([]), query)).toBe(
        await count("created_at >= TIMESTAMP '2023-07-01 00:00:00' AND created_at < TIMESTAMP '2023-07-16 00:00:00'"),
      );
    });
  });
});

describe('context references the compiler refuses', () => {
  const cube = (sqlTable: string, extra = ''): Record<string, string> => ({
    'model/a.yml': `cubes:\n  - name: a\n    sql_table: ${sqlTable}\n${extra}    measures:\n      - { name: count, type: count }\n`,
  });
  it.each([
    {
      name: 'a security-context value in sql_table',
      files: cube("'t_{securityContext.tenant}'"),
      message: /sql_table of cube a cannot hold a security-context/,
    },
    {
      name: 'a compile-context value that is not identifier-safe in sql_table',
      files: cube("'t_{COMPILE_CONTEXT.tenant}'"),
      context: { tenant: 'x; DROP TABLE t' },
      message: /\{COMPILE_CONTEXT\.tenant\} in sql_table of cube a is "x; DROP TABLE t": only letters, digits and underscores/,
    },
    {
      name: 'a compile-context value that is not set',
      files: cube("'t_{COMPILE_CONTEXT.tenant}'"),
      message: /\{COMPILE_CONTEXT\.tenant\} is not set/,
    },
    {
      name: 'FILTER_PARAMS naming a missing member',
      files: cube('t', '    sql: "SELECT * FROM t WHERE {FILTER_PARAMS.a.nope.filter(\'x\')}"\n'),
      message: /FILTER_PARAMS\.a\.nope in cube a: cube a has no member nope/,
    },
    {
      name: 'an unknown SECURITY_CONTEXT method',
      files: cube('t', '    sql: "SELECT * FROM t WHERE {SECURITY_CONTEXT.x.drop()}"\n'),
      message: /unknown method drop\(\)/,
    },
    {
      name: 'SQL_UTILS',
      files: cube('t', '    sql: "SELECT {SQL_UTILS.convertTz(\'x\')} FROM t"\n'),
      message: /SQL_UTILS is not supported yet/,
    },
  ])('$name', ({ files, context, message }) => {
    const result = compile(files, { compileContext: context });
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => e.message).join('\n')).toMatch(message);
  });

  it('a compile-context value that is identifier-safe goes into sql_table', () => {
    const result = compile(cube("'t_{COMPILE_CONTEXT.tenant}'"), { compileContext: { tenant: 'acme_42' } });
    expect(result.errors).toEqual([]);
    expect(result.model.cubes.get('a')?.sqlTable).toBe('t_acme_42');
  });

  it('braces that are no reference (JSON in a string) stay SQL text', () => {
    const result = compile({
      'model/a.yml': `cubes:\n  - name: a\n    sql: "SELECT '{\\"a\\": 1}' AS j, {CUBE}.x FROM t"\n    measures:\n      - { name: count, type: count }\n`,
    });
    expect(result.errors).toEqual([]);
    const parts = result.model.cubes.get('a')?.sql?.parts ?? [];
    expect(parts[0]).toBe(`SELECT '{"a": 1}' AS j, `);
    expect(parts[1]).toEqual({ kind: 'cube', cube: 'a' });
  });
});
