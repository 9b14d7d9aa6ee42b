import { describe, expect, it } from 'vitest';
import { column, cubeIn, model, projectOf } from './testing.js';
import { DbtProjectError, generateCubes, type DbtColumn, type DbtModel } from './index.js';

const generate = (...models: DbtModel[]) => generateCubes(projectOf(...models));
const keyed = (extra: Partial<DbtColumn> = {}): DbtColumn => column('id', { tests: [{ kind: 'unique' }, { kind: 'not_null' }], ...extra });

describe('dimensions', () => {
  it.each([
    [column('amount', { dataType: 'numeric(10,2)' }), 'number'],
    [column('flag', { dataType: 'BOOLEAN' }), 'boolean'],
    [column('at', { dataType: 'timestamp' }), 'time'],
    [column('code', { dataType: 'varchar' }), 'string'],
    [column('order_id', { dataType: 'varchar' }), 'string'],
    [column('created_at'), 'time'],
    [column('is_active'), 'boolean'],
    [column('customer_id'), 'number'],
    [column('status'), 'string'],
  ])('%j is a %s dimension', (col, type) => {
    const cube = cubeIn(generate(model('m', [keyed(), col])), 'm');
    expect(cube.dimensions.get(col.name)).toMatchObject({ type, primaryKey: false });
  });

  it('keeps descriptions and meta (without meta.measures)', () => {
    const generated = generate(
      model('m', [keyed({ description: 'The key.', meta: { pii: false, measures: [{ type: 'count' }], a: { z: 1, b: 2 } } })], {
        description: 'M.',
      }),
    );
    const cube = cubeIn(generated, 'm');
    expect(cube.description).toBe('M.');
    expect(cube.dimensions.get('id')).toMatchObject({ description: 'The key.', meta: { a: { b: 2, z: 1 }, pii: false } });
    expect(generated.files.get('model/dbt/m.yml')).toContain(
      'meta:\n          a:\n            b: 2\n            z: 1\n          pii: false\n',
    );
  });

  it('names columns that are not identifiers and quotes them in SQL', () => {
    const generated = generate(
      model('my-model', [keyed(), column('Order Date'), column('2nd')], { alias: 'My Table', schema: 'raw data' }),
    );
    const text = generated.files.get('model/dbt/my_model.yml')!;
    expect(generated.cubes).toEqual(['my_model']);
    expect(text).toContain('sql_table: \'"raw data"."My Table"\'');
    expect(text).toContain(`sql: '{CUBE}."Order Date"'`);
    const cube = cubeIn(generated, 'my_model');
    expect([...cube.dimensions.keys()].sort()).toEqual(['Order_Date', '_2nd', 'id']);
    expect(cube.dimensions.get('Order_Date')!.type).toBe('time');
  });

  it('does not run Jinja found in descriptions', () => {
    const description = "Uses {{ doc('orders') }} and {% if x %} and {# note #}.";
    const generated = generate(model('m', [keyed({ description })], { description }));
    const cube = cubeIn(generated, 'm');
    expect(cube.description).toBe(description);
    expect(cube.dimensions.get('id')!.description).toBe(description);
  });
});

describe('sql_table from the relation', () => {
  it.each([
    [{ database: 'wh', schema: 'analytics', alias: 'fct' }, 'wh.analytics.fct'],
    [{ database: null, schema: 'analytics', alias: 'fct' }, 'analytics.fct'],
    [{ database: 'wh', schema: null, alias: 'fct' }, 'fct'],
    [{ database: null, schema: null, alias: 'fct' }, 'fct'],
  ])('%j → %s', (relation, sqlTable) => {
    expect(cubeIn(generate(model('m', [keyed()], relation)), 'm').sqlTable).toBe(sqlTable);
  });
});

describe('primary keys', () => {
  it.each<[string, DbtColumn[], string | undefined]>([
    ['unique + not_null', [column('id', { tests: [{ kind: 'not_null' }, { kind: 'unique' }] })], 'id'],
    ['only unique', [column('id', { tests: [{ kind: 'unique' }] })], undefined],
    ['only not_null', [column('id', { tests: [{ kind: 'not_null' }] })], undefined],
    ['a primary_key tag', [column('code', { tags: ['primary_key'] })], 'code'],
    ['the tag over tests', [keyed(), column('code', { tags: ['primary_key'] })], 'code'],
    ['the first of two tested columns', [keyed(), column('email', { tests: [{ kind: 'unique' }, { kind: 'not_null' }] })], 'id'],
    ['none', [column('a')], undefined],
  ])('%s', (_title, columns, key) => {
    expect(cubeIn(generate(model('m', columns)), 'm').primaryKey).toBe(key);
  });

  it('reports the tested columns it did not make keys', () => {
    const generated = generate(model('m', [keyed(), column('email', { tests: [{ kind: 'unique' }, { kind: 'not_null' }] })]));
    expect(generated.warnings).toEqual([
      expect.stringContaining('Model "m": columns "id", "email" are all unique and not null; "id" is the primary key'),
    ]);
  });
});

describe('measures', () => {
  it('has a count, and the measures of meta.measures with sum by default', () => {
    const cube = cubeIn(
      generate(
        model('m', [
          keyed(),
          column('amount', { meta: { measures: [{}, { name: 'biggest', type: 'max' }, { type: 'avg', description: 'Mean.' }] } }),
          column('customer_id', { meta: { measures: ['count_distinct'] } }),
        ]),
      ),
      'm',
    );
    const measures = [...cube.measures.values()].map((m) => [m.name, m.type, m.description]);
    expect(measures.sort()).toEqual([
      ['amount_avg', 'avg', 'Mean.'],
      ['amount_sum', 'sum', undefined],
      ['biggest', 'max', undefined],
      ['count', 'count', undefined],
      ['customer_id_count_distinct', 'count_distinct', undefined],
    ]);
  });

  it.each(['count', 'count_distinct', 'count_distinct_approx', 'sum', 'avg', 'min', 'max'])('accepts type %s', (type) => {
    const cube = cubeIn(generate(model('m', [keyed(), column('v', { meta: { measures: [{ type }] } })])), 'm');
    expect(cube.measures.get(`v_${type}`)!.type).toBe(type);
  });

  it('gives a model without declared columns its count alone', () => {
    const cube = cubeIn(generate(model('m', [])), 'm');
    expect([...cube.measures.keys()]).toEqual(['count']);
    expect(cube.dimensions.size).toBe(0);
  });

  it('calls the row count row_count when a column is named count', () => {
    const cube = cubeIn(generate(model('m', [keyed(), column('count')])), 'm');
    expect(cube.dimensions.get('count')!.type).toBe('number');
    expect(cube.measures.get('row_count')!.type).toBe('count');
  });

  it.each<[string, unknown, string]>([
    [
      'an unknown type',
      [{ name: 'mid', type: 'median' }],
      'unknown measure type "median"; expected one of avg, count, count_distinct, count_distinct_approx, max, min, sum',
    ],
    [
      'a non-aggregating type',
      [{ type: 'number' }],
      'measure type "number" needs an aggregate SQL expression, not a column; expected one of avg,',
    ],
    ['a type that is not text', [{ type: 3 }], 'unknown measure type 3; expected one of'],
    ['not a list', { type: 'sum' }, 'meta.measures must be a list of {name, type}'],
    ['an entry that is not an object', [[1]], 'each entry of meta.measures must be {name, type}'],
    ['an unknown key', [{ type: 'sum', sql: 'x * 2' }], 'unknown key "sql" in meta.measures; expected description, name, title, type'],
    ['a bad name', [{ name: 'total amount' }], 'measure name "total amount" is not a valid name'],
    ['a name taken by a dimension', [{ name: 'id' }], 'measure "id" would be named "id" like the dimension of column "id"'],
    ['a name given twice', [{ name: 'x' }, { name: 'x', type: 'max' }], 'measure "x" would be named "x" like measure "x"'],
  ])('refuses %s, naming the model and column', (_title, measures, message) => {
    let error: unknown;
    try {
      generate(model('orders', [keyed(), column('amount', { meta: { measures } })]));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DbtProjectError);
    expect((error as DbtProjectError).message).toContain(`Model "orders", column "amount": ${message}`);
    expect((error as DbtProjectError).file).toBe('models/orders.sql');
  });
});
