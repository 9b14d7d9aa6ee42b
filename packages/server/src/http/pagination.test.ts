import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { byId, decodeCursor, encodeCursor, toPage, type KeyKind, type ListOrder, type SortKey } from './pagination.js';

type Row = { id: number; key: SortKey };
const order = (kind: KeyKind, direction: 'asc' | 'desc', list = 'things', sort = 'key'): ListOrder<Row> => ({
  list,
  sort: kind === 'id' ? 'id' : sort,
  kind,
  direction,
  keyOf: (row) => (kind === 'id' ? row.id : row.key),
});
const raw = (text: string) => Buffer.from(text).toString('base64url');
const rawParts = (parts: unknown[]) => raw(JSON.stringify(parts));

function rejection(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error('expected a 400');
}

describe('cursor codec', () => {
  it.each<[KeyKind, 'asc' | 'desc', Row]>([
    ['id', 'asc', { id: 7, key: 7 }],
    ['id', 'desc', { id: 2_147_483_647, key: 2_147_483_647 }],
    ['int', 'asc', { id: 1, key: -2_147_483_647 }],
    ['int', 'desc', { id: 3, key: 0 }],
    ['text', 'asc', { id: 4, key: 'Zoë: "quoted", with | and : and é' }],
    ['text', 'desc', { id: 5, key: '' }],
    ['text', 'asc', { id: 6, key: 'da39a3ee5e6b4b0d3255bfef95601890afd80709' }],
    ['timestamp', 'desc', { id: 8, key: '2026-11-22T12:00:00.123456Z' }],
    ['timestamp', 'asc', { id: 9, key: '1970-01-01T00:00:00.000000Z' }],
  ])('round-trips a %s key, %s', (kind, direction, row) => {
    const o = order(kind, direction);
    const cursor = encodeCursor(o, row);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(o, cursor)).toEqual({ key: kind === 'id' ? row.id : row.key, id: row.id });
  });

  it('reads no cursor, or an empty one, as the first page', () => {
    expect(decodeCursor(byId('things'), undefined)).toBeUndefined();
    expect(decodeCursor(byId('things'), '')).toBeUndefined();
  });

  it('still accepts the `id:N` cursors issued before, on lists ordered by ascending id only', () => {
    expect(decodeCursor(byId('anything'), raw('id:42'))).toEqual({ key: 42, id: 42 });
    expect(rejection(() => decodeCursor(order('text', 'asc'), raw('id:42')))).toMatch(/another ordering/);
    expect(rejection(() => decodeCursor(order('id', 'desc'), raw('id:42')))).toMatch(/another ordering/);
  });

  it.each<[string, ListOrder<Row>, string, RegExp]>([
    ['an id past int4 (legacy)', byId('things'), raw('id:2147483648'), /id is out of range/],
    ['an id of 11 digits (legacy)', byId('things'), raw('id:99999999999'), /id is out of range/],
    ['an id past int4', byId('things'), rawParts(['things', 'id', 'asc', 2_147_483_648]), /id is out of range/],
    ['a negative id', byId('things'), rawParts(['things', 'id', 'asc', -1]), /id is out of range/],
    ['a fractional id', byId('things'), rawParts(['things', 'id', 'asc', 1.5]), /id is out of range/],
    ['an id given as text', byId('things'), rawParts(['things', 'id', 'asc', '1']), /id is out of range/],
    ['an int key past int4', order('int', 'asc'), rawParts(['things', 'key', 'asc', 2 ** 31, 1]), /not a 32-bit integer/],
    ['an int key given as text', order('int', 'asc'), rawParts(['things', 'key', 'asc', '5', 1]), /not a 32-bit integer/],
    ['a text key given as a number', order('text', 'asc'), rawParts(['things', 'key', 'asc', 5, 1]), /not text/],
    ['a text key with NUL', order('text', 'asc'), rawParts(['things', 'key', 'asc', 'a\u0000b', 1]), /not valid text/],
    ['a text key with a lone surrogate', order('text', 'asc'), rawParts(['things', 'key', 'asc', '\ud800', 1]), /not valid text/],
    ['a text key too long', order('text', 'asc'), rawParts(['things', 'key', 'asc', 'x'.repeat(1025), 1]), /not valid text/],
    [
      'a timestamp not in UTC microseconds',
      order('timestamp', 'desc'),
      rawParts(['things', 'key', 'desc', '2026-11-22T12:00:00Z', 1]),
      /not a timestamp/,
    ],
    [
      'an impossible timestamp',
      order('timestamp', 'desc'),
      rawParts(['things', 'key', 'desc', '2026-13-45T12:00:00.000000Z', 1]),
      /not a timestamp/,
    ],
    ['a missing part', order('text', 'asc'), rawParts(['things', 'key', 'asc', 1]), /not a cursor this server issued/],
    ['an object', byId('things'), raw('{"id":1}'), /not a cursor this server issued/],
    ['garbage', byId('things'), '%%%', /not a cursor this server issued/],
    ['a tampered cursor', byId('things'), encodeCursor(byId('things'), { id: 5 }).slice(0, -3), /not a cursor this server issued/],
  ])('refuses %s with a 400 that names the problem', (_, o, cursor, why) => {
    const message = rejection(() => decodeCursor(o as ListOrder<never>, cursor));
    expect(message).toMatch(/^Invalid cursor in "after": /);
    expect(message).toMatch(why);
  });

  it.each<[string, ListOrder<Row>, ListOrder<Row>, RegExp]>([
    ['another list', byId('users') as ListOrder<Row>, byId('user-groups') as ListOrder<Row>, /another list/],
    ['another sort key', order('text', 'asc', 'things', 'name'), order('text', 'asc', 'things', 'sha'), /another ordering/],
    ['the other direction', order('timestamp', 'asc'), order('timestamp', 'desc'), /another ordering/],
    ['another key kind', byId('things') as ListOrder<Row>, order('int', 'asc', 'things', 'id'), /not a cursor this server issued/],
  ])('refuses a cursor of %s instead of answering a wrong page', (_, from, to, why) => {
    const cursor = encodeCursor(from, { id: 3, key: from.kind === 'timestamp' ? '2026-01-01T00:00:00.000000Z' : 'x' });
    expect(rejection(() => decodeCursor(to as ListOrder<never>, cursor))).toMatch(why);
  });

  it('pages: one row past the size says there is a next page; cursors name the first and last rows', () => {
    const o = order('text', 'desc');
    const rows = [
      { id: 3, key: 'c' },
      { id: 2, key: 'b' },
      { id: 1, key: 'a' },
    ];
    const page = toPage(o, rows, { first: 2 }, (r) => r.key);
    expect(page.items).toEqual(['c', 'b']);
    expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(decodeCursor(o as ListOrder<never>, page.pageInfo.endCursor!)).toEqual({ key: 'b', id: 2 });
    expect(decodeCursor(o as ListOrder<never>, page.pageInfo.startCursor!)).toEqual({ key: 'c', id: 3 });
    const last = toPage(o, rows.slice(2), { first: 2, after: page.pageInfo.endCursor! }, (r) => r.key);
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(toPage(o, [], {}, (r) => r).pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: null,
      endCursor: null,
    });
  });
});
