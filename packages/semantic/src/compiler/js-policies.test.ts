import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../load.js';
import type { Caller, DataModel } from '../model.js';
import { caller } from '../test-support/access-model.js';
import { sampleTargets, sortedValues, type SampleDb } from '../test-support/sample-warehouses.js';
import { compile } from './compile.js';

/**
 * Access policies in a JavaScript model as Cube's data access policy reference writes them: bare
 * `securityContext.x` (and `userAttributes.x`) in `if` and in `values`, which Cube reads per query.
 * They must compile to the policies of the YAML form and answer the same rows.
 */
const jsModel = (orders: string): string => `cube(\`orders\`, {
  sql_table: \`${orders}\`,
  dimensions: {
    id: { sql: \`id\`, type: \`number\`, primary_key: true },
    status: { sql: \`status\`, type: \`string\` },
    customer_id: { sql: \`customer_id\`, type: \`number\` },
  },
  measures: { count: { type: \`count\` } },
  access_policy: [
    {
      group: \`*\`,
      conditions: [{ if: securityContext.is_EMEA_based }],
      row_level: { filters: [{ member: \`status\`, operator: \`equals\`, values: [securityContext.state] }] },
    },
    {
      group: \`manager\`,
      member_level: { includes: [\`status\`, \`count\`] },
      row_level: { filters: [{ member: \`customer_id\`, operator: \`lt\`, values: userAttributes.below }] },
    },
  ],
});`;

const yamlModel = (orders: string): string => `cubes:
  - name: orders
    sql_table: '${orders}'
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
      - { name: customer_id, sql: customer_id, type: number }
    measures:
      - { name: count, type: count }
    access_policy:
      - group: "*"
        conditions:
          - if: "{ securityContext.is_EMEA_based }"
        row_level:
          filters:
            - { member: status, operator: equals, values: ["{ securityContext.state }"] }
      - group: manager
        member_level:
          includes: [status, count]
        row_level:
          filters:
            - { member: customer_id, operator: lt, values: "{ userAttributes.below }" }
`;

describe('access policies in JavaScript models', () => {
  it('compile to the policies of the YAML form', () => {
    const js = compile({ 'model/orders.js': jsModel('orders') });
    const yaml = compile({ 'model/orders.yml': yamlModel('orders') });
    expect(js.errors).toEqual([]);
    expect(yaml.errors).toEqual([]);
    expect(js.model.cubes.get('orders')?.accessPolicy).toEqual(yaml.model.cubes.get('orders')?.accessPolicy);
  });

  it('refuse an `if` that JavaScript computed when the model was compiled, naming it', () => {
    const result = compile({
      'model/orders.js': jsModel('orders').replace('{ if: securityContext.is_EMEA_based }', '{ if: securityContext.clearance >= 3 }'),
    });
    expect(result.valid).toBe(false);
    expect(result.errors.map((error) => error.message).join('\n')).toMatch(
      /`conditions` of an access policy of orders cannot be read: `if` is false, not an expression over the security context/,
    );
  });
});

describe.each(sampleTargets())('access policies of a JavaScript model on $name', (target) => {
  let db: SampleDb;
  let fromJs: DataModel;
  beforeAll(async () => {
    db = await target.open();
    const compiled = compile({ 'model/orders.js': jsModel(db.table('orders')) });
    expect(compiled.errors).toEqual([]);
    fromJs = compiled.model;
  });
  afterAll(async () => {
    await db?.close();
  });

  const rows = async (who: Caller): Promise<unknown> => {
    const query = { measures: ['orders.count'], dimensions: ['orders.status'] };
    return sortedValues((await load(fromJs, query, { warehouse: db.warehouse, caller: who })).data);
  };
  const handWritten = async (where: string): Promise<unknown> =>
    sortedValues(
      (
        await db.warehouse.query(
          `SELECT status AS "orders.status", count(*) AS "orders.count" FROM ${db.table('orders')} WHERE ${where} GROUP BY 1`,
          [],
        )
      ).rows,
    );

  it.each([
    { name: 'the security context value', who: caller([], { is_EMEA_based: true, state: 'shipped' }), where: "status = 'shipped'" },
    {
      name: 'a user attribute list',
      who: caller(['manager'], {}, { below: [40] }),
      where: 'customer_id < 40',
    },
  ])('filter rows by $name', async ({ who, where }) => {
    expect(await rows(who)).toEqual(await handWritten(where));
  });
});
