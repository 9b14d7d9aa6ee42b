import { describe, expect, it } from 'vitest';
import { column, compiled, cubeIn, model, projectOf } from './testing.js';
import { DbtProjectError, generateCubes, type DbtColumn, type DbtModel } from './index.js';

const generate = (...models: DbtModel[]) => generateCubes(projectOf(...models));
const keyed = (): DbtColumn => column('id', { tests: [{ kind: 'unique' }, { kind: 'not_null' }] });
const ref = (name: string, to: string, field = 'id'): DbtColumn =>
  column(name, { tests: [{ kind: 'not_null' }, { kind: 'relationships', to, field }] });

describe('joins from relationships tests', () => {
  it('joins many_to_one from the tested model to the referenced one', () => {
    const generated = generate(
      model('orders', [keyed(), ref('customer_id', 'customers', 'customer_key')]),
      model('customers', [keyed(), column('customer_key')]),
    );
    expect(generated.files.get('model/dbt/orders.yml')).toContain(
      'joins:\n      - name: customers\n        relationship: many_to_one\n        sql: "{CUBE}.customer_id = {customers}.customer_key"\n',
    );
    const join = cubeIn(generated, 'orders').joins.get('customers');
    expect(join).toMatchObject({ from: 'orders', to: 'customers', relationship: 'many_to_one' });
    expect(cubeIn(generated, 'customers').joins.size).toBe(0);
  });

  it.each([
    ['disabled', { enabled: false }],
    ['ephemeral', { materialized: 'ephemeral' }],
  ])('still joins a %s model, so the build fails naming it', (reason, extra) => {
    const generated = generate(model('orders', [keyed(), ref('customer_id', 'customers')]), model('customers', [keyed()], extra));
    expect(generated.cubes).toEqual(['orders']);
    expect(generated.skipped).toEqual([{ model: 'customers', reason }]);
    const { errors } = compiled(generated);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(/model\/dbt\/orders\.yml: .*customers/);
  });

  it('still joins a model the project does not have', () => {
    const { errors } = compiled(generate(model('orders', [keyed(), ref('customer_id', 'nowhere')])));
    expect(errors.join('\n')).toMatch(/nowhere/);
  });

  it('quotes join columns that are not identifiers', () => {
    const generated = generate(
      model('orders', [keyed(), ref('Customer Id', 'customers', 'Key')]),
      model('customers', [keyed(), column('Key')]),
    );
    expect(generated.files.get('model/dbt/orders.yml')).toContain(`sql: '{CUBE}."Customer Id" = {customers}.Key'`);
    expect(compiled(generated).errors).toEqual([]);
  });

  it('makes no join of a relationship to the model itself, and says so', () => {
    const generated = generate(model('employees', [keyed(), ref('manager_id', 'employees')]));
    expect(cubeIn(generated, 'employees').joins.size).toBe(0);
    expect(generated.warnings).toEqual(['Model "employees", column "manager_id": a relationship to the model itself is not a join']);
  });

  it('joins a model once when two columns reference it, and says so', () => {
    const generated = generate(
      model('orders', [keyed(), ref('billing_customer_id', 'customers'), ref('shipping_customer_id', 'customers')]),
      model('customers', [keyed()]),
    );
    expect(generated.files.get('model/dbt/orders.yml')).toContain('{CUBE}.billing_customer_id = {customers}.id');
    expect(generated.warnings).toEqual([
      'Model "orders", column "shipping_customer_id": a second relationship to "customers" is not a join (a cube joins another once)',
    ]);
  });
});

describe('which models become cubes', () => {
  it('skips disabled and ephemeral models and lists why, by name', () => {
    const generated = generate(
      model('z_disabled_ephemeral', [keyed()], { enabled: false, materialized: 'ephemeral' }),
      model('b_ephemeral', [keyed()], { materialized: 'ephemeral' }),
      model('a_view', [keyed()], { materialized: 'view' }),
      model('c_incremental', [keyed()], { materialized: 'incremental' }),
      model('d_disabled', [keyed()], { enabled: false }),
    );
    expect(generated.cubes).toEqual(['a_view', 'c_incremental']);
    expect([...generated.files.keys()]).toEqual(['model/dbt/a_view.yml', 'model/dbt/c_incremental.yml']);
    expect(generated.skipped).toEqual([
      { model: 'b_ephemeral', reason: 'ephemeral' },
      { model: 'd_disabled', reason: 'disabled' },
      { model: 'z_disabled_ephemeral', reason: 'disabled' },
    ]);
  });

  it('refuses two models that would be one cube', () => {
    expect(() => generate(model('a-b', [keyed()]), model('a_b', [keyed()]))).toThrow(
      new DbtProjectError('Models "a-b" and "a_b" would both be cube "a_b"; rename one of them', 'models/a_b.sql'),
    );
  });

  it('refuses two columns that would be one dimension', () => {
    expect(() => generate(model('m', [keyed(), column('a b'), column('a_b')]))).toThrow(
      'Model "m", column "a_b": the dimension of column "a_b" would be named "a_b" like the dimension of column "a b"',
    );
  });

  it('writes the same files whatever the order of models and columns', () => {
    const models = [
      model('orders', [
        keyed(),
        ref('customer_id', 'customers'),
        column('amount', { meta: { measures: [{ type: 'sum' }, { type: 'max' }] } }),
      ]),
      model('customers', [keyed(), column('name'), column('created_at')]),
    ];
    const reversed = models.map((m) => ({ ...m, columns: [...m.columns].reverse() })).reverse();
    const a = generate(...models);
    const b = generate(...reversed);
    expect([...b.files]).toEqual([...a.files]);
    expect(b.cubes).toEqual(a.cubes);
  });

  it('generates nothing from an empty project', () => {
    expect(generate()).toEqual({ files: new Map(), cubes: [], skipped: [], warnings: [] });
  });
});
