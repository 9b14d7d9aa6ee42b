import { QueryError } from '../errors.js';
import { checkFilter } from './query-filters.js';

export const GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'set',
  'notSet',
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
  'measureFilter',
] as const;
export type Operator = (typeof OPERATORS)[number];

/** Operators that compare against dates: they read a time member's stored UTC column, never its local value. */
export const DATE_OPERATORS: ReadonlySet<string> = new Set<Operator>([
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
]);

export type FilterValue = string | number | boolean | null;
export interface MemberFilter {
  member: string;
  operator: Operator;
  values?: FilterValue[];
}
export type Filter = MemberFilter | { and: Filter[] } | { or: Filter[] };

export interface TimeDimension {
  dimension: string;
  granularity?: Granularity;
  /** A relative phrase, or `[from, to]`; `[day]` is that one day. */
  dateRange?: string | [string, string];
  /** One result set per range, in the multi-result shape (load.ts fans the query out). */
  compareDateRange?: Array<string | [string, string]>;
}

export type OrderDirection = 'asc' | 'desc';

/** Cube's query format, as the data API receives it. */
export interface Query {
  measures?: string[];
  dimensions?: string[];
  segments?: string[];
  timeDimensions?: TimeDimension[];
  filters?: Filter[];
  order?: Record<string, OrderDirection> | Array<[string, OrderDirection]>;
  limit?: number;
  offset?: number;
  total?: boolean;
  timezone?: string;
  ungrouped?: boolean;
  joinHints?: string[][];
  /** Asks Cube to bypass its result cache; this engine keeps none, so it changes nothing. */
  renewQuery?: boolean;
  /** Cube's cache policy; this engine keeps no result cache, so it changes nothing. */
  cache?: CacheMode;
  cacheMode?: CacheMode;
}

export const CACHE_MODES = ['stale-if-slow', 'stale-while-revalidate', 'must-revalidate', 'no-cache'] as const;
export type CacheMode = (typeof CACHE_MODES)[number];

/** `compact` answers `{members, dataset}` instead of one object per row. */
export type ResponseFormat = 'default' | 'compact';
export const RESPONSE_FORMATS: readonly ResponseFormat[] = ['default', 'compact'];

/** The query with defaults filled in; what the load response echoes back. */
export interface NormalizedQuery {
  measures: string[];
  dimensions: string[];
  segments: string[];
  timeDimensions: TimeDimension[];
  filters: Filter[];
  order: Array<{ id: string; desc: boolean }>;
  limit: number;
  offset?: number;
  total?: boolean;
  timezone: string;
  ungrouped?: boolean;
  joinHints?: string[][];
  responseFormat?: ResponseFormat;
  renewQuery?: boolean;
  rowLimit: number;
}

export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 50_000;

/** Keys of Cube's query format this engine implements (or, for cache keys, accepts as having no effect here). */
const KNOWN_KEYS = new Set([
  'measures',
  'dimensions',
  'segments',
  'timeDimensions',
  'filters',
  'order',
  'limit',
  'offset',
  'total',
  'timezone',
  'ungrouped',
  'joinHints',
  'renewQuery',
  'responseFormat',
  'cache',
  'cacheMode',
]);

/** Keys of Cube's query format this engine does not implement: refused by name rather than ignored. */
const UNSUPPORTED_KEYS: Readonly<Record<string, string>> = {
  subqueryJoins: 'subqueryJoins (joins to SQL API subqueries) is not supported',
  maskedMembers: 'maskedMembers is set by Cube itself for masked access policies and is not supported in a query',
  totalQuery: 'totalQuery is internal to Cube; ask for "total": true instead',
};

const TIME_DIMENSION_KEYS = new Set(['dimension', 'granularity', 'dateRange', 'compareDateRange']);

function stringArray(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw new QueryError(`"${field}" must be an array of strings`);
  return value as string[];
}

// Building an Intl.DateTimeFormat to validate a zone was half of planning a simple query. Only valid
// zones are remembered: there are a few hundred of them, while invalid input is unbounded.
const knownTimeZones = new Set<string>(['UTC']);

export function isValidTimeZone(timezone: string): boolean {
  if (knownTimeZones.has(timezone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    knownTimeZones.add(timezone);
    return true;
  } catch {
    return false;
  }
}

function optionalBoolean(query: Record<string, unknown>, key: string): boolean | undefined {
  const value = query[key];
  if (value !== undefined && typeof value !== 'boolean') throw new QueryError(`"${key}" must be true or false`);
  return value;
}

/** Checks the shape of a query (not its members: that needs the model) and fills in defaults. */
export function normalizeQuery(input: unknown): NormalizedQuery {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new QueryError('Query must be a JSON object');
  const query = input as Record<string, unknown>;
  for (const key of Object.keys(query)) {
    const unsupported = UNSUPPORTED_KEYS[key];
    if (unsupported) throw new QueryError(`"${key}" is not supported: ${unsupported}`);
    if (!KNOWN_KEYS.has(key)) throw new QueryError(`"${key}" is not allowed`);
  }
  for (const key of ['cache', 'cacheMode']) {
    const mode = query[key];
    if (mode !== undefined && !(CACHE_MODES as readonly unknown[]).includes(mode))
      throw new QueryError(`"${key}" must be one of ${CACHE_MODES.join(', ')}`);
  }
  // As Cube: no zone, null or an empty one is the default zone.
  const timezone = query['timezone'] === undefined || query['timezone'] === null || query['timezone'] === '' ? 'UTC' : query['timezone'];
  if (typeof timezone !== 'string' || !isValidTimeZone(timezone)) throw new QueryError(`Unknown time zone: ${String(timezone)}`);
  const limit = query['limit'] === undefined || query['limit'] === null ? DEFAULT_LIMIT : query['limit'];
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) throw new QueryError('"limit" must be a non-negative integer');
  if (limit > MAX_LIMIT) throw new QueryError(`The query limit has been exceeded: the maximum is ${MAX_LIMIT}`);
  const offset = query['offset'];
  // Past 2^53 a JSON number is no longer the integer sent, and past 2^63 the warehouses cannot hold it.
  if (offset !== undefined && (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0))
    throw new QueryError(`"offset" must be a non-negative integer no larger than ${Number.MAX_SAFE_INTEGER}`);
  const total = optionalBoolean(query, 'total');
  const ungrouped = optionalBoolean(query, 'ungrouped');
  const renewQuery = optionalBoolean(query, 'renewQuery');
  const timeDimensionsInput = query['timeDimensions'] ?? [];
  if (!Array.isArray(timeDimensionsInput)) throw new QueryError('"timeDimensions" must be an array');
  // As in Cube, `cube.time.month` among dimensions is the time dimension `cube.time` by month.
  const allDimensions = stringArray(query['dimensions'], 'dimensions');
  const dimensions = allDimensions.filter((name) => name.split('.').length !== 3);
  const dimensionsWithGranularity = allDimensions
    .filter((name) => name.split('.').length === 3)
    .map((name) => {
      const parts = name.split('.');
      return { dimension: parts.slice(0, 2).join('.'), granularity: parts[2] };
    });
  const timeDimensions = [...timeDimensionsInput, ...dimensionsWithGranularity].map(checkTimeDimension);
  const filters = query['filters'] ?? [];
  if (!Array.isArray(filters)) throw new QueryError('"filters" must be an array');
  const joinHints = query['joinHints'];
  if (
    joinHints !== undefined &&
    !(Array.isArray(joinHints) && joinHints.every((hint) => Array.isArray(hint) && hint.every((cube) => typeof cube === 'string')))
  ) {
    throw new QueryError('"joinHints" must be an array of arrays of cube names');
  }
  const responseFormat = query['responseFormat'];
  if (responseFormat !== undefined && !(RESPONSE_FORMATS as readonly unknown[]).includes(responseFormat)) {
    throw new QueryError(`"responseFormat" must be one of ${RESPONSE_FORMATS.join(', ')}, not ${JSON.stringify(responseFormat)}`);
  }
  const measures = stringArray(query['measures'], 'measures');
  // Segments, filters or a date range alone select nothing: Cube's gateway refuses such a query.
  if (measures.length === 0 && allDimensions.length === 0 && !timeDimensions.some((timeDimension) => timeDimension.granularity)) {
    throw new QueryError('Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid');
  }
  return {
    measures,
    dimensions,
    segments: stringArray(query['segments'], 'segments'),
    timeDimensions,
    filters: filters.map(checkFilter),
    order: normalizeOrder(query['order']),
    limit,
    rowLimit: limit,
    timezone,
    ...(offset !== undefined ? { offset } : {}),
    ...(total === true ? { total: true } : {}),
    ...(ungrouped === true ? { ungrouped: true } : {}),
    ...(joinHints !== undefined ? { joinHints: joinHints as string[][] } : {}),
    ...(responseFormat !== undefined ? { responseFormat: responseFormat as ResponseFormat } : {}),
    ...(renewQuery !== undefined ? { renewQuery } : {}),
  };
}

function isDateRange(value: unknown): value is string | [string] | [string, string] {
  return (
    typeof value === 'string' ||
    (Array.isArray(value) && value.length >= 1 && value.length <= 2 && value.every((date) => typeof date === 'string'))
  );
}

/** A one-date range is that day, as in Cube. */
function pairOf(range: string | [string] | [string, string]): string | [string, string] {
  if (typeof range === 'string') return range;
  return [range[0], range[1] ?? range[0]];
}

function checkTimeDimension(input: unknown): TimeDimension {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new QueryError('Each time dimension must be an object');
  const timeDimension = input as Record<string, unknown>;
  for (const key of Object.keys(timeDimension)) {
    if (!TIME_DIMENSION_KEYS.has(key)) throw new QueryError(`"${key}" is not allowed in a time dimension`);
  }
  const dimension = timeDimension['dimension'];
  if (typeof dimension !== 'string') throw new QueryError('"timeDimensions[].dimension" must be a string');
  const granularity = timeDimension['granularity'];
  if (granularity !== undefined && granularity !== null && !(GRANULARITIES as readonly unknown[]).includes(granularity)) {
    throw new QueryError(`"timeDimensions[].granularity" must be one of ${GRANULARITIES.join(', ')}, not ${JSON.stringify(granularity)}`);
  }
  const dateRange = timeDimension['dateRange'];
  if (dateRange !== undefined && dateRange !== null && !isDateRange(dateRange)) {
    throw new QueryError('"timeDimensions[].dateRange" must be a string or one or two dates');
  }
  const compareDateRange = timeDimension['compareDateRange'];
  if (compareDateRange !== undefined && compareDateRange !== null) {
    if (!Array.isArray(compareDateRange) || compareDateRange.length === 0 || !compareDateRange.every(isDateRange)) {
      throw new QueryError('"timeDimensions[].compareDateRange" must be an array of date ranges');
    }
    if (dateRange !== undefined && dateRange !== null)
      throw new QueryError('A time dimension takes "dateRange" or "compareDateRange", not both');
  }
  return {
    dimension,
    ...(granularity ? { granularity: granularity as Granularity } : {}),
    ...(isDateRange(dateRange) ? { dateRange: pairOf(dateRange) } : {}),
    ...(Array.isArray(compareDateRange)
      ? { compareDateRange: (compareDateRange as Array<string | [string] | [string, string]>).map(pairOf) }
      : {}),
  };
}

function normalizeOrder(value: unknown): Array<{ id: string; desc: boolean }> {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'object') throw new QueryError(ORDER_FORMAT);
  const pairs: unknown[] = Array.isArray(value) ? value : Object.entries(value as Record<string, unknown>);
  return pairs.map((pair) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || (pair[1] !== 'asc' && pair[1] !== 'desc')) {
      throw new QueryError(ORDER_FORMAT);
    }
    return { id: pair[0], desc: pair[1] === 'desc' };
  });
}

const ORDER_FORMAT = '"order" must be an object of member → "asc"|"desc" or an array of [member, "asc"|"desc"] pairs';
