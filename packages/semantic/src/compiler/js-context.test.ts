import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../load.js';
import type { Caller, DataModel } from '../model.js';
import { planQuery } from '../planner/plan.js';
import type { Query } from '../planner/query.js';
import { caller } from '../test-support/access-model.js';
import { sampleTargets, type SampleDb } from '../test-support/sample-warehouses.js';
import { compile } from './compile.js';

const INJECTION = "shipped' OR '1'='1'; DROP TABLE orders; --";

/** Each cube's WHERE clause as a YAML model writes it and as a JavaScript model writes it. */
const CUBES: ReadonlyArray<{ name: string; yaml: string; js: string }> = [
  { name: 'sc_filter', yaml: "{SECURITY_CONTEXT.status.filter('status')}", js: "${SECURITY_CONTEXT.status.filter('status')}" },
  {
    name: 'sc_required',
    yaml: "{SECURITY_CONTEXT.status.requiredFilter('status')}",
    js: "${SECURITY_CONTEXT.status.requiredFilter('status')}",
  },
  {
    name: 'sc_lambda',
    yaml: '{SECURITY_CONTEXT.statuses.filter(lambda values: f"status IN ({values})")}',
    js: '${SECURITY_CONTEXT.statuses.filter((values) => `status IN (${values})`)}',
  },
  { name: 'sc_value', yaml: 'customer_id = {securityContext.customer_id}', js: 'customer_id = ${securityContext.customer_id}' },
  { name: 'sc_unsafe', yaml: 'status = {SECURITY_CONTEXT.status.unsafeValue()}', js: 'status = ${SECURITY_CONTEXT.status.unsafeValue()}' },
  {
    name: 'fp_single',
    yaml: "{FILTER_PARAMS.fp_single.status.filter('status')} AND {FILTER_PARAMS.fp_single.created_at.filter('created_at')}",
    js: "${FILTER_PARAMS.fp_single.status.filter('status')} AND ${FILTER_PARAMS.fp_single.created_at.filter('created_at')}",
  },
  {
    name: 'fp_group',
    yaml: "{FILTER_GROUP(FILTER_PARAMS.fp_group.status.filter('status'), FILTER_PARAMS.fp_group.customer_id.filter('customer_id'))}",
    js: "${FILTER_GROUP(FILTER_PARAMS.fp_group.status.filter('status'), FILTER_PARAMS.fp_group.customer_id.filter('customer_id'))}",
  },
  {
    name: 'fp_lambda',
    yaml: '{FILTER_PARAMS.fp_lambda.created_at.filter(lambda start, finish: f"created_at >= CAST({start} AS TIMESTAMP) AND created_at <= CAST({finish} AS TIMESTAMP)")}',
    js: '${FILTER_PARAMS.fp_lambda.created_at.filter((start, finish) => `created_at >= CAST(${start} AS TIMESTAMP) AND created_at <= CAST(${finish} AS TIMESTAMP)`)}',
  },
];

function yamlModel(orders: string): string {
  const cube = ({ name, yaml }: { name: string; yaml: string }): string => `
  - name: ${name}
    sql: |-
      SELECT * FROM ${orders} WHERE ${yaml}
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
      - { name: customer_id, sql: customer_id, type: number }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - { name: count, type: count }`;
  return `cubes:${CUBES.map(cube).join('')}\n`;
}

function jsModel(orders: string): string {
  const cube = ({ name, js }: { name: string; js: string }): string => `
cube(\`${name}\`, {
  sql: \`SELECT * FROM ${orders} WHERE ${js}\`,
  dimensions: {
    id: { sql: \`id\`, type: \`number\`, primary_key: true },
    status: { sql: \`status\`, type: \`string\` },
    customer_id: { sql: \`customer_id\`, type: \`number\` },
    created_at: { sql: \`created_at\`, type: \`time\` },
  },
  measures: { count: { type: \`count\` } },
});`;
  return CUBES.map(cube).join('\n');
}

const CONTEXTS: ReadonlyArray<Record<string, unknown>> = [
  { status: 'shipped', statuses: ['shipped', 'returned'], customer_id: 7 },
  { status: ['processing', 'cancelled'], statuses: 'completed', customer_id: 12 },
  { status: [], statuses: [], customer_id: 3 },
  { status: INJECTION, statuses: [INJECTION], customer_id: 5 },
];

const QUERIES: ReadonlyArray<Partial<Query>> = [
  {},
  { filters: [{ member: 'CUBE.status', operator: 'equals', values: ['shipped', 'completed'] }] },
  {
    filters: [
      {
        or: [
          { member: 'CUBE.status', operator: 'equals', values: ['returned'] },
          { member: 'CUBE.customer_id', operator: 'lt', values: ['10'] },
        ],
      },
    ],
  },
  { timeDimensions: [{ dimension: 'CUBE.created_at', dateRange: ['2024-01-01', '2024-06-30'] }] },
];

/** A query against one cube: `CUBE` in the member names above becomes the cube's name. */
function queryFor(cube: string, query: Partial<Query>): Query {
  return JSON.parse(JSON.stringify({ measures: [`${cube}.count`], ...query }).replaceAll('CUBE.', `${cube}.`)) as Query;
}

describe.each(sampleTargets())('context references in a JavaScript model on $name', (target) => {
  let db: SampleDb;
  let fromYaml: DataModel;
  let fromJs: DataModel;
  beforeAll(async () => {
    db = await target.open();
    const orders = db.table('orders');
    const yaml = compile({ 'model/cubes/context.yml': yamlModel(orders) });
    const js = compile({ 'model/cubes/context.js': jsModel(orders) });
    expect(yaml.errors).toEqual([]);
    expect(js.errors).toEqual([]);
    fromYaml = yaml.model;
    fromJs = js.model;
  });
  afterAll(async () => {
    await db?.close();
  });

  const cases = CUBES.flatMap((cube) =>
    CONTEXTS.flatMap((context, contextIndex) =>
      QUERIES.map((query, queryIndex) => ({ cube: cube.name, context, contextIndex, query, queryIndex })),
    ),
  );

  it.each(cases)(
    '$cube, context $contextIndex, query $queryIndex: the same SQL, parameters and rows as the YAML model',
    async ({ cube, context, query }) => {
      const who: Caller = caller([], context);
      const input = queryFor(cube, query);
      const options = { dialect: db.warehouse.dialect, caller: who, now: new Date('2025-01-01T00:00:00Z') };
      // A value that cannot be written (an empty list as a value) fails the same way in both.
      const plan = (model: DataModel): unknown => {
        try {
          return planQuery(model, input, options);
        } catch (error) {
          return { error: (error as Error).message };
        }
      };
      const yamlPlan = plan(fromYaml);
      expect(plan(fromJs)).toEqual(yamlPlan);
      // Values from the security context and the query are bound, never written into the SQL.
      expect(JSON.stringify(yamlPlan)).not.toMatch(/"sql":"[^"]*DROP/);
      // A list where one value is expected fails the same way in both (Cube writes it as `$1, $2` too).
      const outcome = (model: DataModel): Promise<unknown> =>
        load(model, input, { warehouse: db.warehouse, caller: who }).then(
          (response) => response.data,
          (error: Error) => ({ error: error.message }),
        );
      expect(await outcome(fromJs)).toEqual(await outcome(fromYaml));
    },
  );

  it('an injection attempt is a bound parameter that matches no row', async () => {
    const who = caller([], { status: INJECTION });
    const plan = planQuery(fromJs, { measures: ['sc_unsafe.count'] }, { dialect: db.warehouse.dialect, caller: who });
    expect(plan.sql).not.toContain('DROP');
    expect(plan.params).toContain(INJECTION);
    const response = await load(fromJs, { measures: ['sc_unsafe.count'] }, { warehouse: db.warehouse, caller: who });
    expect(Number(response.data[0]?.['sc_unsafe.count'])).toBe(0);
  });

  it('requiredFilter refuses a caller without the value, as in the YAML model', async () => {
    await expect(load(fromJs, { measures: ['sc_required.count'] }, { warehouse: db.warehouse, caller: caller([], {}) })).rejects.toThrow(
      'Filter for status is required',
    );
  });
});

describe('context calls in JavaScript models', () => {
  const sqlOf = (where: string, context?: Readonly<Record<string, unknown>>): unknown => {
    const result = compile(
      { 'model/cubes/a.js': `cube('a', { sql: \`SELECT * FROM t WHERE ${where}\`, dimensions: { s: { sql: 's', type: 'string' } } })` },
      { compileContext: context },
    );
    expect(result.errors).toEqual([]);
    return result.model.cubes.get('a')?.sql?.parts;
  };
  const yamlSqlOf = (where: string): unknown => {
    const result = compile({
      'model/cubes/a.yml': `cubes:\n  - name: a\n    sql: |-\n      SELECT * FROM t WHERE ${where}\n    dimensions:\n      - { name: s, sql: s, type: string }\n`,
    });
    expect(result.errors).toEqual([]);
    return result.model.cubes.get('a')?.sql?.parts;
  };

  it.each([
    ['a column with a single quote', `\${SECURITY_CONTEXT.x.filter("it's")}`, `{SECURITY_CONTEXT.x.filter("it's")}`],
    ['a column with both quotes', `\${SECURITY_CONTEXT.x.filter(\`"a" = 'b' \`)}`, `{SECURITY_CONTEXT.x.filter('''"a" = 'b' ''')}`],
    [
      'security_context and USER_CONTEXT',
      `\${security_context.x.filter('s')} AND \${USER_CONTEXT.y.unsafeValue()}`,
      `{security_context.x.filter('s')} AND {USER_CONTEXT.y.unsafeValue()}`,
    ],
    ['a value read without a method', `s = \${securityContext.x.y}`, 's = {securityContext.x.y}'],
    [
      'a function with one argument',
      `\${FILTER_PARAMS.a.s.filter((v) => \`s > \${v}\`)}`,
      `{FILTER_PARAMS.a.s.filter(lambda v: f"s > {v}")}`,
    ],
  ])('%s reads as the YAML form', (name, js, yaml) => {
    expect(sqlOf(js)).toEqual(yamlSqlOf(yaml));
  });

  it('COMPILE_CONTEXT is a plain value at compile time, written into the SQL', () => {
    expect(sqlOf("s = '${COMPILE_CONTEXT.region}'", { region: 'EU' })).toEqual(yamlSqlOf("s = 'EU'"));
  });

  it.each([
    [
      'an unknown method',
      '${SECURITY_CONTEXT.x.values()}',
      /SECURITY_CONTEXT\.x\.values\(\.\.\.\) is not supported by Plinth.*expected SECURITY_CONTEXT\.x\.filter/,
    ],
    ['a method on the root', "${SECURITY_CONTEXT.filter('s')}", /SECURITY_CONTEXT\.filter\(\.\.\.\) is not supported/],
    ['FILTER_PARAMS without a member', "${FILTER_PARAMS.a.filter('s')}", /FILTER_PARAMS\.a\.filter\(\.\.\.\) is not supported/],
    ['filter() without a column', '${FILTER_PARAMS.a.s.filter()}', /FILTER_PARAMS\.a\.s\.filter\(\.\.\.\) is not supported/],
    ['a column that is no string or function', '${SECURITY_CONTEXT.x.filter(3)}', /takes a column as a string or a function/],
    [
      'a column holding ${CUBE}',
      '${SECURITY_CONTEXT.x.filter(`${CUBE}.s`)}',
      /the column \{CUBE\}\.s cannot hold a reference such as CUBE/,
    ],
    ['a function returning braces', '${FILTER_PARAMS.a.s.filter((v) => `s = {${v}}`)}', /cannot contain \{ or \}/],
    [
      'a function changing its argument',
      '${FILTER_PARAMS.a.s.filter((v) => `s = ${v.slice(1)}`)}',
      /must write its arguments into the SQL as they are/,
    ],
    ['FILTER_GROUP of something else', "${FILTER_GROUP('s = 1')}", /FILTER_GROUP\(\.\.\.\) takes FILTER_PARAMS/],
    ['a member FILTER_PARAMS names that does not exist', "${FILTER_PARAMS.a.nope.filter('s')}", /cube a has no member nope/],
  ])('rejects %s with a message', (name, where, message) => {
    const result = compile({
      'model/cubes/a.js': `cube('a', { sql: \`SELECT * FROM t WHERE ${where}\`, dimensions: { s: { sql: 's', type: 'string' } } })`,
    });
    expect(result.errors.map((e) => e.message).join('\n')).toMatch(message);
    expect(result.valid).toBe(false);
  });
});
