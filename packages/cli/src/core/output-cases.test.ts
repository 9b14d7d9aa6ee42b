import { describe, expect, it } from 'vitest';
import type { Response } from './http.js';
import type { IO } from './io.js';
import { cell, formatObject, formatTable, itemsOf, Output, type Column } from './output.js';

/**
 * The table printer and the Output class, cell by cell: the cases that the command tests never
 * reach (object and array cells, dotted paths through null, status lines only on a terminal).
 */

describe('cell', () => {
  it.each<[string, unknown, string]>([
    ['null is empty', null, ''],
    ['undefined is empty', undefined, ''],
    ['a number', 42, '42'],
    ['zero is not empty', 0, '0'],
    ['false is not empty', false, 'false'],
    ['an empty string', '', ''],
    ['a run of whitespace becomes one space', 'a \n\t b', 'a b'],
    ['every run, not only the first', 'a\nb  c', 'a b c'],
    ['an array joins its cells with commas', ['x', 1, true], 'x,1,true'],
    ['an array keeps its empty items', ['a', null, undefined, 'b'], 'a,,,b'],
    ['an empty array', [], ''],
    ['an array of objects', [{ a: 1 }, { b: 'two' }], '{"a":1},{"b":"two"}'],
    ['nested arrays flatten', [['a', 'b'], 'c'], 'a,b,c'],
    ['whitespace inside array items is folded', ['a\nb'], 'a b'],
    ['an object is compact JSON', { name: 'n', tags: ['t'], nested: { ok: true } }, '{"name":"n","tags":["t"],"nested":{"ok":true}}'],
    ['an empty object', {}, '{}'],
  ])('%s', (_label, value, expected) => {
    expect(cell(value)).toBe(expected);
  });
});

describe('formatTable', () => {
  it.each<[string, Column[], any[], string]>([
    [
      'upper-case headers, columns padded to the widest cell, two spaces apart, the last column not padded',
      [
        ['id', 'id'],
        ['name', 'name'],
        ['note', 'note'],
      ],
      [
        { id: 1, name: 'analytics', note: 'x' },
        { id: 22, name: 'm', note: 'longer' },
      ],
      'ID  NAME       NOTE\n1   analytics  x\n22  m          longer\n',
    ],
    [
      'a header wider than every cell sets the width',
      [
        ['identifier', 'id'],
        ['n', 'n'],
      ],
      [{ id: 1, n: 'a' }],
      'IDENTIFIER  N\n1           a\n',
    ],
    [
      'dotted paths read nested values and stop at null or a missing link',
      [
        ['who', 'owner.name'],
        ['city', 'owner.address.city'],
        ['end', 'end'],
      ],
      [
        { owner: { name: 'ann', address: { city: 'Oslo' } }, end: 1 },
        { owner: null, end: 2 },
        { owner: { name: 'bo', address: null }, end: 3 },
        { end: 4 },
      ],
      'WHO  CITY  END\nann  Oslo  1\n           2\nbo         3\n           4\n',
    ],
    [
      'object and array cells print as compact JSON and comma lists; a row of empty cells is an empty line',
      [
        ['roles', 'roles'],
        ['meta', 'meta'],
      ],
      [
        { roles: ['admin', 'viewer'], meta: { a: 1 } },
        { roles: [], meta: null },
      ],
      'ROLES         META\nadmin,viewer  {"a":1}\n\n',
    ],
    [
      'a function column computes the cell from the row',
      [
        ['id', 'id'],
        ['label', (row: { id: number }) => `#${row.id}`],
      ],
      [{ id: 7 }],
      'ID  LABEL\n7   #7\n',
    ],
    [
      'empty trailing cells leave no trailing spaces',
      [
        ['a', 'a'],
        ['b', 'b'],
      ],
      [{ a: 'x', b: null }],
      'A  B\nx\n',
    ],
    [
      'no rows prints the headers alone',
      [
        ['id', 'id'],
        ['name', 'name'],
      ],
      [],
      'ID  NAME\n',
    ],
  ])('%s', (_label, columns, rows, expected) => {
    expect(formatTable(columns, rows)).toBe(expected);
  });
});

describe('formatObject', () => {
  it.each<[string, Record<string, unknown>, Column[] | undefined, string]>([
    [
      'every key, aligned to the longest',
      { id: 1, longName: 'x y', tags: ['a', 'b'] },
      undefined,
      'id        1\nlongName  x y\ntags      a,b\n',
    ],
    ['nested objects as compact JSON', { settings: { chat: true } }, undefined, 'settings  {"chat":true}\n'],
    ['an empty value leaves no trailing spaces', { id: 1, region: null }, undefined, 'id      1\nregion\n'],
    ['an empty object is an empty line', {}, undefined, '\n'],
    [
      'chosen fields, with labels, dotted paths and functions',
      { id: 3, owner: { email: 'a@b.c' }, extra: 'hidden' },
      [
        ['ID', 'id'],
        ['Owner', 'owner.email'],
        ['Manager', 'manager.email'],
        ['Twice', (o: { id: number }) => o.id * 2],
      ],
      'ID       3\nOwner    a@b.c\nManager\nTwice    6\n',
    ],
  ])('%s', (_label, object, fields, expected) => {
    expect(formatObject(object, fields)).toBe(expected);
  });
});

describe('itemsOf', () => {
  const rows = [{ id: 1 }];
  it.each<[string, unknown, unknown[]]>([
    ['a bare array', rows, rows],
    ['platform {items}', { items: rows, pageInfo: {} }, rows],
    ['SCIM {Resources}', { Resources: rows, totalResults: 1 }, rows],
    ['items wins over Resources', { items: rows, Resources: [{ id: 2 }] }, rows],
    ['items that is not an array falls through to Resources', { items: 'x', Resources: rows }, rows],
    ['an object without a list', { id: 1 }, []],
    ['null', null, []],
    ['undefined', undefined, []],
    ['a string', 'items', []],
  ])('%s', (_label, body, expected) => {
    expect(itemsOf(body)).toEqual(expected);
  });
});

function capture(options: { stderrIsTTY: boolean; json?: boolean }) {
  const streams = { stdout: '', stderr: '' };
  const io = {
    stdout: { write: (text: string) => (streams.stdout += text) },
    stderr: { write: (text: string) => (streams.stderr += text) },
    stderrIsTTY: options.stderrIsTTY,
  } as unknown as IO;
  return { streams, output: new Output(io, options.json ?? false) };
}

const response = (data: unknown, text = data === undefined ? '' : JSON.stringify(data)): Response =>
  ({ status: 200, headers: new Headers(), data, text }) as Response;

describe('Output', () => {
  it.each<[string, boolean, string]>([
    ['status lines go to stderr at a terminal', true, 'Deleted deployment 3\n'],
    ['status lines are silent when stderr is not a terminal', false, ''],
  ])('%s', (_label, stderrIsTTY, expected) => {
    const { streams, output } = capture({ stderrIsTTY });
    output.status('Deleted deployment 3');
    expect(streams).toEqual({ stdout: '', stderr: expected });
  });

  it.each([true, false])('notices reach stderr whether or not it is a terminal (TTY %s)', (stderrIsTTY) => {
    const { streams, output } = capture({ stderrIsTTY });
    output.notice('No results');
    expect(streams).toEqual({ stdout: '', stderr: 'No results\n' });
  });

  it.each<[string, string, string]>([
    ['data ends with exactly one newline', 'abc', 'abc\n'],
    ['data that already ends with a newline is not doubled', 'abc\n', 'abc\n'],
  ])('%s', (_label, text, expected) => {
    const { streams, output } = capture({ stderrIsTTY: true });
    output.data(text);
    expect(streams).toEqual({ stdout: expected, stderr: '' });
  });

  const columns: Column[] = [
    ['id', 'id'],
    ['name', 'name'],
  ];
  it.each<[string, { json?: boolean }, Response, { stdout: string; stderr: string }]>([
    ['a table of the items', {}, response({ items: [{ id: 1, name: 'a' }] }), { stdout: 'ID  NAME\n1   a\n', stderr: '' }],
    [
      '--json passes the body through untouched',
      { json: true },
      response(undefined, '{"items":[ ]}'),
      { stdout: '{"items":[ ]}\n', stderr: '' },
    ],
    ['--json with an empty body prints nothing', { json: true }, response(undefined, ''), { stdout: '', stderr: '' }],
    ['no items says so on stderr', {}, response({ items: [] }), { stdout: '', stderr: 'No results\n' }],
    [
      'a next page says how to continue',
      {},
      response({ items: [{ id: 1, name: 'a' }], pageInfo: { hasNextPage: true, endCursor: 'abc' } }),
      { stdout: 'ID  NAME\n1   a\n', stderr: 'More results: add --after abc\n' },
    ],
    [
      'no hint on the last page',
      {},
      response({ items: [{ id: 1, name: 'a' }], pageInfo: { hasNextPage: false, endCursor: 'abc' } }),
      { stdout: 'ID  NAME\n1   a\n', stderr: '' },
    ],
    [
      'no hint without a cursor',
      {},
      response({ items: [{ id: 1, name: 'a' }], pageInfo: { hasNextPage: true, endCursor: null } }),
      { stdout: 'ID  NAME\n1   a\n', stderr: '' },
    ],
    ['a bare array without pageInfo', {}, response([{ id: 2, name: 'b' }]), { stdout: 'ID  NAME\n2   b\n', stderr: '' }],
  ])('list: %s', (_label, options, body, expected) => {
    const { streams, output } = capture({ stderrIsTTY: false, ...options });
    output.list(body, columns);
    expect(streams).toEqual(expected);
  });

  it.each<[string, { json?: boolean }, Response, Column[] | undefined, string]>([
    ['an object as FIELD value lines', {}, response({ id: 1, name: 'a' }), undefined, 'id    1\nname  a\n'],
    ['chosen fields', {}, response({ id: 1, name: 'a' }), [['Name', 'name']], 'Name  a\n'],
    ['--json passes the body through', { json: true }, response({ id: 1 }, '{"id": 1}'), undefined, '{"id": 1}\n'],
    ['a body that is not an object prints its text', {}, response('plain', 'plain'), undefined, 'plain\n'],
    ['no body prints nothing', {}, response(undefined, ''), undefined, ''],
    ['a null body with text prints the text', {}, response(null, 'null'), undefined, 'null\n'],
  ])('object: %s', (_label, options, body, fields, expected) => {
    const { streams, output } = capture({ stderrIsTTY: true, ...options });
    output.object(body, fields);
    expect(streams).toEqual({ stdout: expected, stderr: '' });
  });
});
