import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { badRequest } from './errors.js';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
const MAX_ID = 2_147_483_647;

export const PageQuery = Type.Object({
  first: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: `Page size (default ${DEFAULT_PAGE_SIZE}).` }),
  ),
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

/** Cursors are opaque to callers; inside they are the id of the row a page ended on. */
export function encodeCursor(id: number): string {
  return Buffer.from(`id:${id}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const match = /^id:(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString());
  const id = match ? Number(match[1]) : Number.NaN;
  // Ids are 32-bit: a larger one would fail in the database, not here, as a 500.
  if (!(id <= MAX_ID)) throw badRequest('Invalid cursor in "after"');
  return id;
}

/**
 * Keyset pagination by id: repositories fetch `size + 1` rows after the cursor, ordered by id,
 * and this turns them into a page; the extra row only says whether another page exists.
 */
export function toPage<Row extends { id: number }, Item>(rows: Row[], query: PageQuery, map: (row: Row) => Item): Page<Item> {
  const size = pageSize(query);
  const pageRows = rows.slice(0, size);
  const first = pageRows[0];
  const last = pageRows[pageRows.length - 1];
  return {
    items: pageRows.map(map),
    pageInfo: {
      hasNextPage: rows.length > size,
      hasPreviousPage: decodeCursor(query.after) !== undefined,
      startCursor: first ? encodeCursor(first.id) : null,
      endCursor: last ? encodeCursor(last.id) : null,
    },
  };
}

export function pageSize(query: PageQuery): number {
  return query.first ?? DEFAULT_PAGE_SIZE;
}
