import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../load.js';
import type { Caller, DataModel } from '../model.js';
import type { Query } from '../planner/query.js';
import { sampleModelFiles } from '../sample/sample.js';
import { SAMPLE_MODEL_JS } from '../test-support/sample-model-js.js';
import { sampleTargets, type SampleDb } from '../test-support/sample-warehouses.js';
import { compile } from './compile.js';
import { HARD_LIMIT_MS, TIME_LIMIT_MS } from './js-sandbox.js';

/** Maps sorted by name and file names blanked: the same model read from other files must compare equal. */
function comparable(model: DataModel): unknown {
  const sorted = <T>(map: ReadonlyMap<string, T>): Array<[string, T]> => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    cubes: sorted(model.cubes).map(([name, cube]) => [name, { ...cube, fileName: '' }]),
    views: sorted(model.views).map(([name, view]) => [name, { ...view, fileName: '' }]),
  };
}

const compileJs = (prefix: string): ReturnType<typeof compile> => compile(SAMPLE_MODEL_JS, { compileContext: { prefix } });

describe('JavaScript model files', () => {
  it('the sample model written in JavaScript compiles to the same model as the YAML one', () => {
    const fromJs = compileJs('');
    expect(fromJs.errors).toEqual([]);
    expect(fromJs.cubesCount).toBe(5);
    expect(comparable(fromJs.model)).toEqual(comparable(compile(sampleModelFiles()).model));
  });

  /** Each case: a model file and what the compile error must say; `line` when the error can point at one. */
  const REJECTED: Array<{ name: string; source: string; message: RegExp; line?: number }> = [
    { name: 'process', source: 'cube("a", { sql: `${process.env.HOME}` })', message: /process is not available in a model file/, line: 1 },
    {
      name: 'require',
      source: 'const fs = require("fs");\ncube("a", { sql: fs.readFileSync("/etc/passwd") })',
      message: /require is not available/,
      line: 1,
    },
    {
      name: 'import()',
      source: 'cube("a", { sql_table: "a" });\nimport("fs").then((fs) => fs.readFileSync("/etc/passwd"));',
      message: /import is not supported in model files \(line 2\)/,
      line: 2,
    },
    {
      name: 'a static import',
      source: 'import fs from "fs";\ncube("a", { sql_table: "a" });',
      message: /import is not supported in model files/,
      line: 1,
    },
    {
      name: 'globalThis.fetch',
      source: '\nglobalThis.fetch("http://example.com/")',
      message: /fetch is not available in a model file/,
      line: 2,
    },
    {
      name: 'the global object through Function',
      source: 'Function("return this")().process.exit(1)',
      message: /process is not available/,
    },
    { name: 'QuickJS std and os modules', source: 'std.loadFile("/etc/passwd")', message: /std is not available/ },
    {
      name: 'an endless loop',
      source: 'cube("a", { sql_table: "a" });\nwhile (true) {}',
      message: new RegExp(`ran longer than ${TIME_LIMIT_MS} ms and was stopped`),
    },
    { name: 'an endless loop in a sql function', source: 'cube("a", { sql: () => { for (;;) {} } })', message: /ran longer than/ },
    {
      name: 'unbounded memory',
      source: 'const all = [];\nwhile (true) all.push({ index: all.length, items: [1, 2, 3] });',
      message: /more than 32 MB|ran longer than/,
    },
    {
      name: 'a syntax error',
      source: 'cube("a", {\n  sql_table: "a",\n  measures: { count: { type: "count",, } },\n});',
      message: /SyntaxError/,
      line: 3,
    },
    { name: 'a runtime error', source: 'cube("a", {\n  sql_table: "a",\n});\nnull.x;', message: /TypeError/, line: 4 },
    { name: 'an unsupported helper', source: 'asyncModule(async () => {});', message: /asyncModule\(\) is not supported/ },
    {
      name: 'a call on a context variable Plinth does not know',
      source: 'cube("a", { sql: `SELECT ${SECURITY_CONTEXT.a.b.values()}` })',
      message: /SECURITY_CONTEXT\.a\.b\.values\(\.\.\.\) is not supported/,
    },
  ];

  it.each(REJECTED)('rejects $name with a compile error naming the file', ({ source, message, line }) => {
    const started = Date.now();
    const result = compile({ 'model/cubes/a.js': source });
    expect(Date.now() - started).toBeLessThan(TIME_LIMIT_MS * 5);
    const error = result.errors.find((e) => message.test(e.message));
    expect(error, JSON.stringify(result.errors)).toMatchObject({ fileName: 'model/cubes/a.js' });
    if (line !== undefined) expect(error?.line).toBe(line);
    expect(result.valid).toBe(false);
  });

  it('cuts off a file stuck in long native calls by terminating its thread, and still reads the files after it', () => {
    const started = Date.now();
    const result = compile({
      'model/cubes/a.js': 'const all = [];\nwhile (true) all.push("x".repeat(100000) + all.length);',
      'model/cubes/b.js': 'cube("b", { sql_table: "b", measures: { count: { type: "count" } } });',
    });
    expect(Date.now() - started).toBeLessThan(HARD_LIMIT_MS + 5000);
    expect(result.errors).toMatchObject([
      { fileName: 'model/cubes/a.js', message: expect.stringMatching(/ran longer than \d+ ms and was stopped/) as string },
    ]);
    expect([...result.model.cubes.keys()]).toEqual(['b']);
  });

  it('checks keywords of JavaScript files too, with the line of the key', () => {
    const source =
      "cube('orders', {\n  sqlTable: 'orders',\n  measures: {\n    revenue_prior: {\n      type: 'sum',\n      sql: 'amount',\n      timeShift: [{ interval: '1 year', type: 'prior' }],\n    },\n  },\n});\n";
    const result = compile({ 'model/cubes/orders.js': source });
    expect(result.errors).toMatchObject([
      {
        fileName: 'model/cubes/orders.js',
        message: expect.stringMatching(/measures\.revenue_prior: timeShift is not supported by Plinth yet/) as string,
        line: 7,
      },
    ]);
  });

  it('reports a cube with no definitions as a 0-cube model, not an error, and ignores non-model files', () => {
    expect(compile({ 'model/helpers/empty.js': '// nothing yet\n', 'scripts/build.js': 'process.exit(1)' })).toMatchObject({
      valid: true,
      cubesCount: 0,
    });
  });
});

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };
const REGIONAL: Caller = { groups: ['regional'], userAttributes: { country: 'Germany' }, securityContext: {} };

const QUERIES: Array<{ query: Query; caller: Caller }> = [
  {
    query: { measures: ['line_items.revenue', 'line_items.avg_price', 'line_items.revenue_per_order'], dimensions: ['products.category'] },
    caller: ADMIN,
  },
  {
    query: { measures: ['orders.count', 'orders.completed_share'], dimensions: ['orders.status_group'], segments: ['orders.completed'] },
    caller: ADMIN,
  },
  { query: { measures: ['customers.count'], dimensions: ['customers.country'], segments: ['customers.in_usa'] }, caller: ADMIN },
  {
    query: { measures: ['sales.revenue'], dimensions: ['sales.orders_status'], order: { 'sales.orders_status': 'asc' } },
    caller: REGIONAL,
  },
  {
    query: {
      measures: ['orders.customer_count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'year' }],
      order: { 'orders.created_at': 'asc' },
    },
    caller: ADMIN,
  },
];

describe.each(sampleTargets())('the JavaScript sample model on $name', (target) => {
  let db: SampleDb;
  let jsModel: DataModel;
  beforeAll(async () => {
    db = await target.open();
    const compiled = compileJs(db.table(''));
    expect(compiled.errors).toEqual([]);
    jsModel = compiled.model;
  });
  afterAll(async () => db.close());

  it.each(QUERIES)('answers $query.measures as the YAML model does', async ({ query, caller }) => {
    const fromYaml = await load(db.model, query, { warehouse: db.warehouse, caller });
    const fromJs = await load(jsModel, query, { warehouse: db.warehouse, caller });
    expect(fromYaml.data.length).toBeGreaterThan(0);
    expect(fromJs.data).toEqual(fromYaml.data);
  });
});
