import { describe, expect, it } from 'vitest';
import { meta } from '../meta.js';
import { compile } from './compile.js';

const cubeWith = (members: string): string => `cubes:
  - name: orders
    sql_table: orders
${members}`;

const measure = (body: string): string => cubeWith(`    measures:\n      - name: m\n${body}`);
const dimension = (body: string): string => cubeWith(`    dimensions:\n      - name: d\n${body}`);

describe('rolling_window and running_total', () => {
  it.each([
    {
      yaml: measure('        type: count\n        rolling_window:\n          trailing: 7 day\n'),
      window: { kind: 'window', offset: 'end', trailing: { count: 7, unit: 'day' } },
    },
    {
      yaml: measure(
        '        type: sum\n        sql: x\n        rolling_window:\n          trailing: unbounded\n          leading: 2 weeks\n          offset: start\n',
      ),
      window: { kind: 'window', offset: 'start', trailing: 'unbounded', leading: { count: 2, unit: 'week' } },
    },
    {
      yaml: measure('        type: count\n        rollingWindow:\n          type: to_date\n          granularity: quarter\n'),
      window: { kind: 'to_date', granularity: 'quarter' },
    },
    {
      yaml: measure('        type: count\n        rolling_window:\n          type: year_to_date\n'),
      window: { kind: 'to_date', granularity: 'year' },
    },
    { yaml: measure('        type: running_total\n        sql: amount\n'), window: { kind: 'running_total' }, type: 'sum' },
  ])('reads $window', ({ yaml, window, type }) => {
    const result = compile({ 'model/a.yml': yaml });
    expect(result.errors).toEqual([]);
    const m = result.model.cubes.get('orders')?.measures.get('m');
    expect(m?.rollingWindow).toEqual(window);
    if (type) expect(m?.type).toBe(type);
  });

  it('marks cumulative measures in meta as Cube does', () => {
    const result = compile({
      'model/a.yml': cubeWith(
        '    measures:\n      - name: total\n        type: running_total\n        sql: amount\n      - name: plain\n        type: count\n',
      ),
    });
    const measures = meta(result.model).cubes[0]?.measures ?? [];
    expect(measures.find((m) => m.name === 'orders.total')).toMatchObject({ type: 'number', aggType: 'runningTotal', cumulative: true });
    expect(measures.find((m) => m.name === 'orders.plain')).toMatchObject({ aggType: 'count', cumulative: false });
  });

  it.each([
    {
      yaml: measure('        type: count\n        rolling_window:\n          trailing: seven days\n'),
      message: /must be an interval such as `7 day`/,
    },
    { yaml: measure('        type: count\n        rolling_window:\n          trailing: 7 fortnight\n'), message: /not '7 fortnight'/ },
    { yaml: measure('        type: count\n        rolling_window:\n          window: 7 day\n'), message: /has unknown key `window`/ },
    {
      yaml: measure('        type: count\n        rolling_window:\n          offset: middle\n'),
      message: /offset` of orders\.m must be start or end/,
    },
    {
      yaml: measure('        type: count\n        rolling_window:\n          type: to_date\n'),
      message: /of type to_date needs a `granularity`/,
    },
    {
      yaml: measure(
        '        type: count\n        rolling_window:\n          type: to_date\n          granularity: month\n          trailing: 1 day\n',
      ),
      message: /takes only a `granularity`/,
    },
    { yaml: measure('        type: count\n        rolling_window:\n          type: sliding\n'), message: /unknown type 'sliding'/ },
    { yaml: measure('        type: count\n        rolling_window:\n          granularity: month\n'), message: /needs `type: to_date`/ },
    {
      yaml: measure('        type: number\n        sql: "1"\n        rolling_window:\n          trailing: 1 day\n'),
      message: /of type number cannot have a `rolling_window`/,
    },
    { yaml: measure('        type: running_total\n'), message: /orders\.m of type sum needs `sql`/ },
    {
      yaml: measure('        type: running_total\n        sql: x\n        rolling_window:\n          trailing: 1 day\n'),
      message: /running_total and cannot have a `rolling_window` too/,
    },
  ])('rejects $message', ({ yaml, message }) => {
    const result = compile({ 'model/a.yml': yaml });
    const found = result.errors.find((e) => message.test(e.message));
    expect(found, JSON.stringify(result.errors)).toBeDefined();
    expect(found).toMatchObject({ fileName: 'model/a.yml', line: 5 });
  });
});

describe('geo dimensions', () => {
  it('compile with latitude and longitude and show as geo in meta', () => {
    const result = compile({
      'model/a.yml': dimension(
        '        type: geo\n        latitude:\n          sql: lat\n        longitude:\n          sql: "{CUBE}.lng"\n',
      ),
    });
    expect(result.errors).toEqual([]);
    const d = result.model.cubes.get('orders')?.dimensions.get('d');
    expect(d?.latitude?.text).toBe('{CUBE}.lat');
    expect(d?.longitude?.text).toBe('{CUBE}.lng');
    expect(meta(result.model).cubes[0]?.dimensions[0]).toMatchObject({ name: 'orders.d', type: 'geo' });
  });

  it.each([
    {
      yaml: dimension(
        '        type: geo\n        latitude:\n          sql: lat\n          precision: 6\n        longitude:\n          sql: lng\n',
      ),
      message: /`latitude` of geo dimension orders\.d has unknown key `precision`/,
    },
    {
      yaml: dimension('        type: geo\n        latitude:\n          sql: lat\n'),
      message: /Geo dimension orders\.d needs `longitude: \{sql: \.\.\.\}`/,
    },
    {
      yaml: dimension('        type: geo\n        latitude: lat\n        longitude:\n          sql: lng\n'),
      message: /`latitude` of geo dimension orders\.d must be a mapping with `sql`/,
    },
    {
      yaml: dimension('        type: string\n        sql: x\n        latitude:\n          sql: lat\n'),
      message: /`latitude` of orders\.d is only allowed on a dimension of type geo/,
    },
    {
      yaml: dimension('        type: geo\n        latitude:\n          sql: "{nope}"\n        longitude:\n          sql: lng\n'),
      message: /\{nope\} cannot be resolved/,
    },
  ])('rejects $message', ({ yaml, message }) => {
    const result = compile({ 'model/a.yml': yaml });
    const found = result.errors.find((e) => message.test(e.message));
    expect(found, JSON.stringify(result.errors)).toBeDefined();
    expect(found?.fileName).toBe('model/a.yml');
  });
});

describe('sub_query dimensions', () => {
  it('refuse propagate_filters_to_sub_query without sub_query: true, which it would change nothing on', () => {
    const result = compile({
      'model/a.yml': dimension('        type: number\n        sql: "{CUBE}.amount"\n        propagate_filters_to_sub_query: true\n'),
    });
    expect(result.errors).toMatchObject([
      {
        fileName: 'model/a.yml',
        message: 'orders.d has propagate_filters_to_sub_query but no `sub_query: true`, without which it does nothing',
      },
    ]);
  });
});
