import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { badRequest } from './errors.js';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
const MAX_ID = 2_147_483_647;

export const PageQuery = Type.Object({
  first: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: `Page size (default ${DEFAULT_PAGE_SIZE}).` })),
  after: Type.Optional(Type.String({ description: 'Cursor: the `endCursor` of the previous page.' })),
});
export type PageQuery = Static<typeof PageQuery>;

export const PageInfo = Type.Object(
  {
    hasNextPage: Type.Boolean(),
    hasPreviousPage: Type.Boolean(),
    startCursor: Type.Union([Type.String(), Type.Null()]),
    endCursor: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'PageInfo' },
);

/** The body of every list: `{items, pageInfo}` (DESIGN.md). The item is a registered component. */
export function Connection<T extends TSchema>(item: T, $id: string) {
  if (!item.$id) throw new Error(`Connection ${$id}: the item schema needs an $id`);
  return Type.Object({ items: Type.Array(Type.Ref(item)), pageInfo: Type.Ref(PageInfo) }, { $id });
}

export interface Page<T> {
  items: T[];
  pageInfo: Static<typeof PageInfo>;
}

/**
 * How a list is ordered: by its sort key, then by id, both in `direction`. `list` and `sort` name
 * it inside every cursor it hands out, so a cursor used on another list or ordering is refused
 * instead of answering a page of the wrong list. Define one per list, once, next to its service.
 */
export interface ListOrder<Row> {
  readonly list: string;
  readonly sort: string;
  readonly kind: KeyKind;
  readonly direction: Direction;
  /** The row's sort key as the cursor holds it (for `timestamp`, the text of store/keyset.ts `timestampKey`). */
  readonly keyOf: (row: Row) => SortKey;
}
export type KeyKind = 'id' | 'int' | 'text' | 'timestamp';
export type Direction = 'asc' | 'desc';
export type SortKey = number | string;

/** Where a page ends: the last row's sort key and id. */
export interface Position {
  key: SortKey;
  id: number;
}

/** The order of every list that existed before cursors carried a sort key: ascending ids. */
export function byId(list: string): ListOrder<{ id: number }> {
  return { list, sort: 'id', kind: 'id', direction: 'asc', keyOf: (row) => row.id };
}

export function encodeCursor<Row extends { id: number }>(order: ListOrder<Row>, row: Row): string {
  const key = order.kind === 'id' ? [] : [order.keyOf(row)];
  return Buffer.from(JSON.stringify([order.list, order.sort, order.direction, ...key, row.id])).toString('base64url');
}

/**
 * The position `after` names in this list, or undefined for the first page. Anything else is a
 * 400 that says what is wrong: a value that reached PostgreSQL out of range would be a 500.
 */
export function decodeCursor(order: ListOrder<never>, after: string | undefined): Position | undefined {
  if (after === undefined || after === '') return undefined;
  const text = Buffer.from(after, 'base64url').toString();
  // Cursors from before the sort key: `id:N`, valid on every list still ordered by ascending id.
  const legacy = /^id:(\d+)$/.exec(text);
  if (legacy) {
    if (order.kind !== 'id' || order.direction !== 'asc') throw invalidCursor('it belongs to another ordering of this list');
    const id = checkId(Number(legacy[1]));
    return { key: id, id };
  }
  let parts: unknown;
  try {
    parts = JSON.parse(text);
  } catch {
    throw invalidCursor('it is not a cursor this server issued');
  }
  const withKey = order.kind === 'id' ? 0 : 1;
  if (!Array.isArray(parts) || parts.length !== 4 + withKey) throw invalidCursor('it is not a cursor this server issued');
  const [list, sort, direction] = parts as unknown[];
  if (list !== order.list) throw invalidCursor('it belongs to another list');
  if (sort !== order.sort || direction !== order.direction) throw invalidCursor('it belongs to another ordering of this list');
  const id = checkId(parts[3 + withKey]);
  return { key: withKey ? checkKey(order.kind, parts[3]) : id, id };
}

const invalidCursor = (why: string) => badRequest(`Invalid cursor in "after": ${why}; use the endCursor of the previous page`);

// Ids are int4 in the store: a larger one would fail in the database, not here, as a 500.
function checkId(value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > MAX_ID) throw invalidCursor('its id is out of range');
  return value as number;
}

const MAX_TEXT_KEY = 1024;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{6})Z$/;

function checkKey(kind: KeyKind, value: unknown): SortKey {
  if (kind === 'int') {
    if (!Number.isInteger(value) || Math.abs(value as number) > MAX_ID) throw invalidCursor('its sort key is not a 32-bit integer');
    return value as number;
  }
  if (typeof value !== 'string') throw invalidCursor('its sort key is not text');
  if (kind === 'timestamp') {
    const m = TIMESTAMP.exec(value);
    if (!m || Number.isNaN(Date.parse(`${m.slice(1, 4).join('-')}T${m.slice(4, 7).join(':')}Z`)) || m[1] === '0000') {
      throw invalidCursor('its sort key is not a timestamp');
    }
    return value;
  }
  // PostgreSQL refuses NUL in text, and a lone surrogate cannot be sent as UTF-8.
  if (value.length > MAX_TEXT_KEY || value.includes('\u0000') || /\p{Cs}/u.test(value))
    throw invalidCursor('its sort key is not valid text');
  return value;
}

/**
 * Keyset pagination: repositories fetch `size + 1` rows after the cursor, in the list's order
 * (store/keyset.ts), and this turns them into a page; the extra row only says whether another
 * page exists.
 */
export function toPage<Row extends { id: number }, Item>(
  order: ListOrder<Row>,
  rows: Row[],
  query: PageQuery,
  map: (row: Row) => Item,
): Page<Item> {
  const size = pageSize(query);
  const pageRows = rows.slice(0, size);
  const first = pageRows[0];
  const last = pageRows[pageRows.length - 1];
  return {
    items: pageRows.map(map),
    pageInfo: {
      hasNextPage: rows.length > size,
      hasPreviousPage: query.after !== undefined && query.after !== '',
      startCursor: first ? encodeCursor(order, first) : null,
      endCursor: last ? encodeCursor(order, last) : null,
    },
  };
}

export function pageSize(query: PageQuery): number {
  return query.first ?? DEFAULT_PAGE_SIZE;
}
