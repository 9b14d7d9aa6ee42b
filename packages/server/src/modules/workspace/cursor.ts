import { badRequest } from '../../http/errors.js';
import { OBJECT_TYPES, type ObjectType, type OrderDirection, type OrderField } from './schemas.js';

/**
 * Where a page of the workspace ends. The list mixes three tables, so an id alone does not place
 * a row: the cursor holds the whole sort key (folders first, then the chosen field, then the kind
 * and the id), and the next page starts strictly after it. Rows inserted meanwhile land before or
 * after it; none is repeated or skipped.
 */
export interface WorkspacePosition {
  rank: 0 | 1;
  key: string;
  type: ObjectType;
  id: number;
}

/** The list and ordering a cursor belongs to; a cursor of another one is refused, not misread. */
export interface WorkspaceOrder {
  list: 'workspace' | 'shared-workspace';
  field: OrderField;
  direction: OrderDirection;
}

const MAX_KEY = 1024;

export function encodeWorkspaceCursor(order: WorkspaceOrder, at: WorkspacePosition): string {
  const parts = [order.list, order.field, order.direction, at.rank, at.key, at.type, at.id];
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

export function decodeWorkspaceCursor(order: WorkspaceOrder, after: string | undefined): WorkspacePosition | undefined {
  if (after === undefined || after === '') return undefined;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(after, 'base64url').toString());
  } catch {
    throw invalid('it is not a cursor this server issued');
  }
  if (!Array.isArray(parts) || parts.length !== 7) throw invalid('it is not a cursor this server issued');
  const [list, field, direction, rank, key, type, id] = parts as unknown[];
  if (list !== order.list) throw invalid('it belongs to another list');
  if (field !== order.field || direction !== order.direction) throw invalid('it belongs to another ordering of this list');
  if (rank !== 0 && rank !== 1) throw invalid('it is not a cursor this server issued');
  // PostgreSQL refuses NUL in text, and a lone surrogate cannot be sent as UTF-8.
  if (typeof key !== 'string' || key.length > MAX_KEY || key.includes('\u0000') || /\p{Cs}/u.test(key)) {
    throw invalid('its sort key is not valid text');
  }
  if (!OBJECT_TYPES.includes(type as ObjectType)) throw invalid('its item type is unknown');
  if (!Number.isInteger(id) || (id as number) < 1 || (id as number) > 2_147_483_647) throw invalid('its id is out of range');
  return { rank, key, type: type as ObjectType, id: id as number };
}

const invalid = (why: string) => badRequest(`Invalid cursor in "after": ${why}; use the endCursor of the previous page`);
