import { sql } from 'kysely';
import { resolveAttribute } from './attributes.js';
import { invalidFilter, invalidValue, URN } from './errors.js';
import { filterToSql, parseFilter, type FilterOptions, type FilterTarget } from './filter.js';
import { Projection } from './projection.js';
import type { ListQuery } from './query-repo.js';
import type { ScimResource } from './mappers.js';

/** Query parameters of a list (RFC 7644 §3.4.2), or the body of a `POST /.search` (§3.4.3). */
export interface ListParams {
  filter?: string | undefined;
  startIndex?: number | undefined;
  count?: number | undefined;
  sortBy?: string | undefined;
  sortOrder?: string | undefined;
  attributes?: string | string[] | undefined;
  excludedAttributes?: string | string[] | undefined;
}

export const DEFAULT_COUNT = 100;
/** ServiceProviderConfig `filter.maxResults`: a larger `count` is lowered to it (RFC 7644 §3.4.2.4). */
export const MAX_RESULTS = 1000;

export interface PlannedList {
  query: ListQuery;
  startIndex: number;
  projection: Projection;
}

export function planList(params: ListParams, target: FilterTarget, options: FilterOptions = {}): PlannedList {
  // §3.4.2.4: startIndex below 1 is read as 1, a negative count as 0.
  const startIndex = Math.max(1, Math.trunc(withinRange('startIndex', params.startIndex) ?? 1));
  const count = Math.min(MAX_RESULTS, Math.max(0, Math.trunc(withinRange('count', params.count) ?? DEFAULT_COUNT)));
  const where =
    params.filter !== undefined && params.filter.trim() !== '' ? filterToSql(parseFilter(params.filter), target, options) : undefined;
  return {
    query: { where, orderBy: sortOf(params, target, options), offset: startIndex - 1, limit: count },
    startIndex,
    projection: Projection.of(target.type, params.attributes, params.excludedAttributes),
  };
}

/** SCIM integers are 32-bit (RFC 7643 §2.3.4); a larger offset would fail in the database as a 500. */
const MAX_INTEGER = 2_147_483_647;

function withinRange(name: 'startIndex' | 'count', value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || Math.abs(value) > MAX_INTEGER) {
    throw invalidValue(`${name} must be an integer between -${MAX_INTEGER} and ${MAX_INTEGER}`);
  }
  return value;
}

function sortOf(params: ListParams, target: FilterTarget, options: FilterOptions): ListQuery['orderBy'] {
  const order = params.sortOrder?.toLowerCase();
  if (order !== undefined && order !== 'ascending' && order !== 'descending') {
    throw invalidValue(`sortOrder must be "ascending" or "descending", not "${params.sortOrder}"`);
  }
  if (params.sortBy === undefined || params.sortBy.trim() === '') return undefined;
  const resolved = resolveAttribute(target.type, params.sortBy.trim());
  let path: string | undefined;
  if (resolved?.top.multiValued) {
    // A multi-valued attribute sorts by its primary value (§3.4.2.3); only emails has one here.
    path = resolved.top.name === 'emails' && (!resolved.sub || resolved.sub.name === 'value') ? 'emails.$primary' : undefined;
  } else if (resolved) {
    path = (resolved.sub ? `${resolved.top.name}.${resolved.sub.name}` : resolved.top.name).toLowerCase();
  }
  const column = path && target.column(path);
  if (!column && options.absentIfUnknown) return undefined;
  if (!column) throw invalidFilter(`sortBy "${params.sortBy}" is not a sortable attribute of ${target.type.name}`);
  const { top, sub } = resolved!;
  const def = sub ?? (top.multiValued ? top.subAttributes?.find((a) => a.name === 'value') : undefined) ?? top;
  return {
    column: def.type === 'string' && !def.caseExact ? sql`lower(${column})` : column,
    descending: order === 'descending',
  };
}

export function listResponse(resources: ScimResource[], total: number, startIndex: number) {
  return {
    schemas: [URN.listResponse],
    totalResults: total,
    itemsPerPage: resources.length,
    startIndex,
    Resources: resources,
  };
}
