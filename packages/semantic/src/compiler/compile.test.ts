import { describe, expect, it } from 'vitest';
import { compile } from './compile.js';
import { countCube, ORDERS_CUBE } from '../test-support/models.js';

/** Each case: model files and the error messages the compiler must report (substring match). */
const ERROR_CASES: Array<{
  name: string;
  files: Record<string, string>;
  errors: Array<{ fileName: string; message: RegExp; line?: number }>;
}> = [
  {
    name: 'YAML syntax error with line and column',
    files: { 'model/bad.yml': 'cubes:\n  - name: a\n    sql_table: [unclosed\n' },
    errors: [{ fileName: 'model/bad.yml', message: /YAML syntax error at line \d+, column \d+/ }],
  },
  {
    name: 'unknown measure type',
    files: {
      'model/a.yml': 'cubes:\n  - name: a\n    sql_table: a\n    measures:\n      - name: m\n        type: median\n        sql: x\n',
    },
    errors: [{ fileName: 'model/a.yml', message: /Unknown measure type 'median' for a\.m/, line: 5 }],
  },
  {
    name: 'unknown dimension type',
    files: {
      'model/a.yml': 'cubes:\n  - name: a\n    sql_table: a\n    dimensions:\n      - name: d\n        type: text\n        sql: x\n',
    },
    errors: [{ fileName: 'model/a.yml', message: /Unknown dimension type 'text' for a\.d/ }],
  },
  {
    name: 'duplicate cube names across files',
    files: { 'model/a.yml': ORDERS_CUBE, 'model/b.yml': ORDERS_CUBE },
    errors: [{ fileName: 'model/b.yml', message: /Duplicate cube or view name orders \(first defined in model\/a\.yml\)/ }],
  },
  {
    name: 'duplicate member names',
    files: { 'model/a.yml': `${ORDERS_CUBE}      - name: count\n        sql: c\n        type: number\n` },
    errors: [{ fileName: 'model/a.yml', message: /Duplicate member name count in cube orders/ }],
  },
  {
    name: 'reference to a missing cube',
    files: {
      'model/a.yml':
        'cubes:\n  - name: a\n    sql_table: a\n    dimensions:\n      - name: d\n        type: string\n        sql: "{Orders.status}"\n',
    },
    errors: [{ fileName: 'model/a.yml', message: /Cube Orders doesn't exist/ }],
  },
  {
    name: 'reference to a missing member',
    files: { 'model/a.yml': `${ORDERS_CUBE}      - name: total\n        type: number\n        sql: "{amount} * 2"\n` },
    errors: [{ fileName: 'model/a.yml', message: /\{amount\} cannot be resolved/ }],
  },
  {
    name: 'circular number measures',
    files: {
      'model/a.yml':
        'cubes:\n  - name: a\n    sql_table: a\n    measures:\n      - name: x\n        type: number\n        sql: "{y} + 1"\n      - name: y\n        type: number\n        sql: "{x} + 1"\n',
    },
    errors: [{ fileName: 'model/a.yml', message: /Circular reference: a\.x -> a\.y -> a\.x/ }],
  },
  {
    name: 'join to a missing cube',
    files: {
      'model/a.yml': `${ORDERS_CUBE}    joins:\n      - name: users\n        relationship: many_to_one\n        sql: "{CUBE}.user_id = {users}.id"\n`,
    },
    errors: [{ fileName: 'model/a.yml', message: /Cube users doesn't exist \(joined from cube orders\)/ }],
  },
  {
    name: 'cube without sql_table or sql',
    files: { 'model/a.yml': 'cubes:\n  - name: a\n    measures:\n      - name: count\n        type: count\n' },
    errors: [{ fileName: 'model/a.yml', message: /Cube a needs `sql_table` or `sql`/, line: 2 }],
  },
  {
    name: 'unknown join relationship',
    files: { 'model/a.yml': `${ORDERS_CUBE}    joins:\n      - name: orders\n        relationship: many_to_many\n        sql: "1 = 1"\n` },
    errors: [{ fileName: 'model/a.yml', message: /unknown relationship 'many_to_many'/ }],
  },
  {
    name: 'measure without sql',
    files: { 'model/a.yml': 'cubes:\n  - name: a\n    sql_table: a\n    measures:\n      - name: s\n        type: sum\n' },
    errors: [{ fileName: 'model/a.yml', message: /a\.s of type sum needs `sql`/ }],
  },
  {
    name: 'view with a missing cube and a missing member',
    files: {
      'model/a.yml': `${ORDERS_CUBE}views:\n  - name: v\n    cubes:\n      - join_path: nope\n        includes: "*"\n      - join_path: orders\n        includes: [count, missing]\n`,
    },
    errors: [
      { fileName: 'model/a.yml', message: /Cube nope doesn't exist \(join_path nope of view v\)/ },
      { fileName: 'model/a.yml', message: /View v includes orders\.missing, which does not exist/ },
    ],
  },
  {
    name: 'view includes and excludes that are not lists',
    files: {
      'model/a.yml': `${ORDERS_CUBE}views:\n  - name: v\n    cubes:\n      - join_path: orders\n        includes: count\n        excludes: id\n`,
    },
    errors: [
      { fileName: 'model/a.yml', message: /includes of orders in view v must be "\*" or a list of member names/ },
      { fileName: 'model/a.yml', message: /excludes of orders in view v must be a list of member names/ },
    ],
  },
  {
    name: 'access policy naming a missing member',
    files: { 'model/a.yml': `${ORDERS_CUBE}    access_policy:\n      - group: "*"\n        member_level:\n          includes: [secret]\n` },
    errors: [{ fileName: 'model/a.yml', message: /Access policy of orders names member secret/ }],
  },
  {
    name: 'an access policy condition that cannot be read',
    files: {
      'model/a.yml': `${ORDERS_CUBE}    access_policy:\n      - group: "*"\n        conditions:\n          - if: "{ process.env.HOME }"\n`,
    },
    errors: [{ fileName: 'model/a.yml', message: /`conditions` of an access policy of orders cannot be read: 'process' is not supported/ }],
  },
  {
    name: 'pre-aggregation naming a missing member',
    files: { 'model/a.yml': `${ORDERS_CUBE}    pre_aggregations:\n      - name: main\n        measures: [CUBE.nothing]\n` },
    errors: [{ fileName: 'model/a.yml', message: /Pre-aggregation orders\.main references orders\.nothing/ }],
  },
];

describe('compile', () => {
  it('compiles a valid model and ignores files outside model/', () => {
    const result = compile({ 'model/orders.yml': ORDERS_CUBE, 'README.md': '# not a model', 'model/notes.txt': 'x' });
    expect(result).toMatchObject({ valid: true, errors: [], cubesCount: 1 });
    expect(result.model.cubes.get('orders')?.primaryKey).toBe('id');
  });

  it.each(ERROR_CASES)('reports $name', ({ files, errors }) => {
    const result = compile(files);
    expect(result.valid).toBe(false);
    for (const e of errors) {
      const found = result.errors.find((x) => x.fileName === e.fileName && e.message.test(x.message));
      expect(found, `${e.message} in ${JSON.stringify(result.errors)}`).toBeDefined();
      if (e.line !== undefined) expect(found?.line).toBe(e.line);
    }
  });

  it('reports every problem at once, each with its file', () => {
    const result = compile({
      'model/a.yml': 'cubes:\n  - name: a\n    measures:\n      - name: m\n        type: nope\n',
      'model/b.yml':
        'cubes:\n  - name: b\n    sql_table: b\n    dimensions:\n      - name: d\n        type: string\n        sql: "{Nope.x}"\n',
      'model/c.yml': 'cubes: [\n',
    });
    expect(result.errors.map((e) => e.fileName).sort()).toEqual(['model/a.yml', 'model/a.yml', 'model/b.yml', 'model/c.yml']);
  });

  it('is deterministic whatever the order of the files', () => {
    const files: Array<[string, string]> = [
      ['model/b.yml', countCube('b')],
      ['model/a.yml', ORDERS_CUBE],
      ['model/c.yml', 'cubes:\n  - name: x\n'],
    ];
    const one = compile(new Map(files));
    const two = compile(new Map([...files].reverse()));
    expect(two.errors).toEqual(one.errors);
    expect([...two.model.cubes.keys()]).toEqual([...one.model.cubes.keys()]);
  });

  it('accepts the aliases of join relationships and resolves references', () => {
    const result = compile({
      'model/m.yml': `cubes:
  - name: users
    sql: SELECT * FROM users
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
  - name: orders
    sql_table: orders
    joins:
      - name: users
        relationship: belongs_to
        sql: "{CUBE}.user_id = {users.id}"
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: user_label
        sql: "'u' || {users.id}"
        type: string
`,
    });
    expect(result.errors).toEqual([]);
    expect(result.model.cubes.get('orders')?.joins.get('users')?.relationship).toBe('many_to_one');
  });

  it('compiles a model of 500 cubes with 20 members each', () => {
    const cubes = Array.from({ length: 500 }, (_, i) => {
      const members = Array.from({ length: 9 }, (_, k) => `      - name: d${k}\n        sql: c${k}\n        type: string\n`).join('');
      const measures = Array.from({ length: 10 }, (_, k) => `      - name: m${k}\n        sql: v${k}\n        type: sum\n`).join('');
      const join =
        i > 0 ? `    joins:\n      - name: c${i - 1}\n        relationship: many_to_one\n        sql: "{CUBE}.p = {c${i - 1}.id}"\n` : '';
      return `  - name: c${i}\n    sql_table: t${i}\n${join}    dimensions:\n      - name: id\n        sql: id\n        type: number\n        primary_key: true\n${members}    measures:\n${measures}`;
    });
    const result = compile({ 'model/big.yml': `cubes:\n${cubes.join('')}` });
    expect(result.errors).toEqual([]);
    expect(result.cubesCount).toBe(500);
  });
});
