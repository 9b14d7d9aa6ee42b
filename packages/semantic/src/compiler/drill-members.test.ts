import { describe, expect, it } from 'vitest';
import { duckdbDialect } from '../dialects/duckdb.js';
import { meta } from '../meta.js';
import { planQuery } from '../planner/plan.js';
import type { Caller } from '../model.js';
import { compile } from './compile.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };

const USERS_JS = `cube('users', {
  sqlTable: 'users',
  dimensions: { id: { sql: 'id', type: 'number', primaryKey: true }, name: { sql: 'name', type: 'string' } },
});
`;

const ORDERS_JS = `cube('orders', {
  sqlTable: 'orders',
  joins: { users: { relationship: 'belongsTo', sql: \`\${CUBE}.user_id = \${users.id}\` } },
  measures: { count: { type: 'count', drillMembers: [id, CUBE.created_at, users.name] } },
  dimensions: {
    id: { sql: 'id', type: 'number', primaryKey: true },
    created_at: { sql: 'created_at', type: 'time' },
  },
});
view('order_facts', { cubes: [{ joinPath: orders, includes: ['count', 'id'] }] });
`;

describe('drill_members', () => {
  it('resolves member names in JavaScript and YAML and lists them in /meta, a view listing those it includes', () => {
    const result = compile({ 'model/users.js': USERS_JS, 'model/orders.js': ORDERS_JS });
    expect(result.errors).toEqual([]);
    expect(result.model.cubes.get('orders')?.measures.get('count')?.drillMembers).toEqual(['orders.id', 'orders.created_at', 'users.name']);
    const body = meta(result.model, ADMIN);
    const count = (owner: string): unknown => body.cubes.find((c) => c.name === owner)?.measures.find((m) => m.name === `${owner}.count`);
    expect(count('orders')).toMatchObject({ drillMembers: ['orders.id', 'orders.created_at', 'users.name'] });
    expect(count('order_facts')).toMatchObject({ drillMembers: ['order_facts.id'] });
  });

  it("are grouped by kind in /meta and in a load's annotation, where @cubejs-client/core's drillDown reads them", () => {
    const withMeasure = ORDERS_JS.replace('[id, CUBE.created_at, users.name]', '[id, CUBE.created_at, users.name, CUBE.count]');
    const result = compile({ 'model/users.js': USERS_JS, 'model/orders.js': withMeasure });
    expect(result.errors).toEqual([]);
    const grouped = {
      drillMembers: ['orders.id', 'orders.created_at', 'users.name', 'orders.count'],
      drillMembersGrouped: { measures: ['orders.count'], dimensions: ['orders.id', 'orders.created_at', 'users.name'] },
    };
    const viewGrouped = {
      drillMembers: ['order_facts.id', 'order_facts.count'],
      drillMembersGrouped: { measures: ['order_facts.count'], dimensions: ['order_facts.id'] },
    };
    const body = meta(result.model, ADMIN);
    const count = (owner: string): unknown => body.cubes.find((c) => c.name === owner)?.measures.find((m) => m.name === `${owner}.count`);
    expect(count('orders')).toMatchObject(grouped);
    expect(count('order_facts')).toMatchObject(viewGrouped);
    const annotated = (path: string) =>
      planQuery(result.model, { measures: [path] }, { dialect: duckdbDialect, caller: ADMIN }).annotation.measures[path];
    expect(annotated('orders.count')).toMatchObject(grouped);
    expect(annotated('order_facts.count')).toMatchObject(viewGrouped);
  });

  it('rejects a drill member that does not exist, naming the file and the member', () => {
    const yaml = `cubes:
  - name: orders
    sql_table: orders
    measures:
      - name: count
        type: count
        drill_members: [id, nope, users.id]
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
`;
    const result = compile({ 'model/orders.yml': yaml });
    expect(result.errors.map((e) => [e.fileName, e.line, e.message])).toEqual([
      ['model/orders.yml', 5, 'drill_members of orders.count names nope, which is not a member of orders'],
      ['model/orders.yml', 5, 'drill_members of orders.count names users.id, which is not a member of users'],
    ]);
  });
});
