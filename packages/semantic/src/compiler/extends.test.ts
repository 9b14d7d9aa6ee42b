import { describe, expect, it } from 'vitest';
import { compile } from './compile.js';

const BASE = `cubes:
  - name: base_orders
    sql_table: orders
    title: Base orders
    joins:
      - name: customers
        relationship: many_to_one
        sql: "{CUBE}.customer_id = {customers.id}"
    measures:
      - name: count
        type: count
      - name: total
        sql: amount
        type: sum
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: status
        type: string
    segments:
      - name: done
        sql: "{CUBE}.status = 'completed'"
    pre_aggregations:
      - name: by_status
        measures: [count]
        dimensions: [status]
  - name: customers
    sql_table: customers
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
`;

describe('extends', () => {
  it('inherits members, joins, segments, pre-aggregations and sql_table, and lets the child override and add', () => {
    const result = compile({
      'model/base.yml': BASE,
      'model/child.yml': `cubes:
  - name: big_orders
    extends: base_orders
    sql: SELECT * FROM orders WHERE amount > 100
    measures:
      - name: total
        sql: amount * 2
        type: sum
      - name: avg_amount
        sql: amount
        type: avg
`,
    });
    expect(result.errors).toEqual([]);
    const child = result.model.cubes.get('big_orders');
    expect(child?.sqlTable).toBeUndefined();
    expect(child?.sql?.text).toBe('SELECT * FROM orders WHERE amount > 100');
    expect(child?.title).toBe('Base orders');
    expect([...(child?.measures.keys() ?? [])]).toEqual(['count', 'total', 'avg_amount']);
    expect(child?.measures.get('total')?.sql?.text).toBe('amount * 2');
    expect(child?.measures.get('total')?.cube).toBe('big_orders');
    expect([...(child?.dimensions.keys() ?? [])]).toEqual(['id', 'status']);
    expect(child?.segments.get('done')?.sql.parts).toContainEqual({ kind: 'cube', cube: 'big_orders' });
    expect(child?.joins.get('customers')?.from).toBe('big_orders');
    expect(child?.primaryKey).toBe('id');
    // The parent is untouched.
    expect(result.model.cubes.get('base_orders')?.measures.get('total')?.sql?.text).toBe('{CUBE}.amount');
  });

  it('follows chains in any file order, and a child may override the parent title', () => {
    const result = compile({
      'model/a.yml': `cubes:
  - name: c3
    extends: c2
    title: Third
  - name: c2
    extends: "{base_orders}"
    dimensions:
      - name: extra
        sql: extra
        type: string
`,
      'model/z.yml': BASE,
    });
    expect(result.errors).toEqual([]);
    const c3 = result.model.cubes.get('c3');
    expect(c3?.title).toBe('Third');
    expect(c3?.sqlTable).toBe('orders');
    expect([...(c3?.dimensions.keys() ?? [])]).toEqual(['id', 'status', 'extra']);
    expect(c3?.dimensions.get('extra')?.path).toBe('c3.extra');
  });

  it('inherits hierarchies and pre-aggregations, checked against the child', () => {
    const withHierarchy = BASE.replace(
      '    pre_aggregations:',
      '    hierarchies:\n      - name: by_status\n        levels: [status, id]\n    pre_aggregations:',
    );
    const good = compile({ 'model/a.yml': `${withHierarchy}  - name: child\n    extends: base_orders\n` });
    expect(good.errors).toEqual([]);
    expect(good.model.cubes.get('child')?.hierarchies?.map((h) => h.levels)).toEqual([['status', 'id']]);
    const bad = compile({
      'model/a.yml': `${withHierarchy.replace('dimensions: [status]', 'dimensions: [nowhere]')}  - name: child\n    extends: base_orders\n`,
    });
    const messages = bad.errors.map((e) => e.message);
    expect(messages).toContainEqual(expect.stringMatching(/Pre-aggregation base_orders\.by_status references base_orders\.nowhere/));
    expect(messages).toContainEqual(expect.stringMatching(/Pre-aggregation child\.by_status references child\.nowhere/));
  });

  it('lets a view extend a view, concatenating its cubes', () => {
    const result = compile({
      'model/base.yml': `${BASE}views:
  - name: v1
    cubes:
      - join_path: base_orders
        includes: [count]
  - name: v2
    extends: v1
    cubes:
      - join_path: base_orders.customers
        includes: [id]
        prefix: true
`,
    });
    expect(result.errors).toEqual([]);
    expect([...(result.model.views.get('v2')?.members.keys() ?? [])]).toEqual(['count', 'customers_id']);
  });

  const ERRORS: Array<{ name: string; yaml: string; message: RegExp }> = [
    { name: 'a missing parent', yaml: `${BASE}  - name: x\n    extends: nope\n`, message: /Cube x extends nope, which does not exist/ },
    {
      name: 'a cycle',
      yaml: `${BASE}  - name: x\n    extends: y\n  - name: y\n    extends: x\n`,
      message: /Circular extends: (x -> y -> x|y -> x -> y)/,
    },
    { name: 'a cube extending itself', yaml: `${BASE}  - name: x\n    extends: x\n`, message: /Circular extends: x -> x/ },
    {
      name: 'a view extending a cube',
      yaml: `${BASE}views:\n  - name: v\n    extends: base_orders\n`,
      message: /View v extends base_orders, which is a cube/,
    },
  ];
  it.each(ERRORS)('reports $name, naming the file', ({ yaml, message }) => {
    const result = compile({ 'model/ext.yml': yaml });
    expect(result.valid).toBe(false);
    const found = result.errors.find((e) => message.test(e.message));
    expect(found, JSON.stringify(result.errors)).toBeDefined();
    expect(found?.fileName).toBe('model/ext.yml');
    expect(found?.line).toBeGreaterThan(0);
  });
});
