import { QueryError } from '../errors.js';

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
  dateRange?: string | [string, string];
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
}

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
  rowLimit: number;
}

export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 50_000;

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
]);

function stringArray(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new QueryError(`"${field}" must be an array of strings`);
  return v as string[];
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Checks the shape of a query (not its members: that needs the model) and fills in defaults. */
export function normalizeQuery(input: unknown): NormalizedQuery {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new QueryError('Query must be a JSON object');
  const q = input as Record<string, unknown>;
  for (const key of Object.keys(q)) if (!KNOWN_KEYS.has(key)) throw new QueryError(`"${key}" is not allowed`);
  const timezone = q['timezone'] === undefined ? 'UTC' : q['timezone'];
  if (typeof timezone !== 'string' || !isValidTimeZone(timezone)) throw new QueryError(`Unknown time zone: ${String(timezone)}`);
  const limit = q['limit'] === undefined || q['limit'] === null ? DEFAULT_LIMIT : q['limit'];
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) throw new QueryError('"limit" must be a non-negative integer');
  if (limit > MAX_LIMIT) throw new QueryError(`The query limit has been exceeded: the maximum is ${MAX_LIMIT}`);
  const offset = q['offset'];
  if (offset !== undefined && (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0))
    throw new QueryError('"offset" must be a non-negative integer');
  const timeDimensions = (q['timeDimensions'] === undefined ? [] : q['timeDimensions']) as unknown;
  if (!Array.isArray(timeDimensions)) throw new QueryError('"timeDimensions" must be an array');
  const tds = timeDimensions.map((td: unknown): TimeDimension => {
    if (typeof td !== 'object' || td === null) throw new QueryError('Each time dimension must be an object');
    const t = td as Record<string, unknown>;
    if (typeof t['dimension'] !== 'string') throw new QueryError('"timeDimensions[].dimension" must be a string');
    const g = t['granularity'];
    if (g !== undefined && g !== null && !(GRANULARITIES as readonly unknown[]).includes(g)) {
      throw new QueryError(`"timeDimensions[].granularity" must be one of ${GRANULARITIES.join(', ')}`);
    }
    const dr = t['dateRange'];
    const okRange =
      dr === undefined ||
      dr === null ||
      typeof dr === 'string' ||
      (Array.isArray(dr) && dr.length === 2 && dr.every((x) => typeof x === 'string'));
    if (!okRange) throw new QueryError('"timeDimensions[].dateRange" must be a string or a pair of dates');
    return {
      dimension: t['dimension'],
      ...(g ? { granularity: g as Granularity } : {}),
      ...(dr ? { dateRange: dr as TimeDimension['dateRange'] } : {}),
    };
  });
  const filters = q['filters'] === undefined ? [] : q['filters'];
  if (!Array.isArray(filters)) throw new QueryError('"filters" must be an array');
  const joinHints = q['joinHints'];
  if (
    joinHints !== undefined &&
    !(Array.isArray(joinHints) && joinHints.every((h) => Array.isArray(h) && h.every((x) => typeof x === 'string')))
  ) {
    throw new QueryError('"joinHints" must be an array of arrays of cube names');
  }
  const responseFormat = q['responseFormat'];
  if (responseFormat !== undefined && !(RESPONSE_FORMATS as readonly unknown[]).includes(responseFormat)) {
    throw new QueryError(`"responseFormat" must be one of ${RESPONSE_FORMATS.join(', ')}, not ${JSON.stringify(responseFormat)}`);
  }
  return {
    measures: stringArray(q['measures'], 'measures'),
    dimensions: stringArray(q['dimensions'], 'dimensions'),
    segments: stringArray(q['segments'], 'segments'),
    timeDimensions: tds,
    filters: filters.map(checkFilter),
    order: normalizeOrder(q['order']),
    limit,
    rowLimit: limit,
    timezone,
    ...(offset !== undefined ? { offset } : {}),
    ...(q['total'] === true ? { total: true } : {}),
    ...(q['ungrouped'] === true ? { ungrouped: true } : {}),
    ...(joinHints !== undefined ? { joinHints: joinHints as string[][] } : {}),
    ...(responseFormat !== undefined ? { responseFormat: responseFormat as ResponseFormat } : {}),
  };
}

function checkFilter(f: unknown): Filter {
  if (typeof f !== 'object' || f === null) throw new QueryError('Each filter must be an object');
  const o = f as Record<string, unknown>;
  for (const key of ['and', 'or'] as const) {
    if (o[key] !== undefined) {
      if (!Array.isArray(o[key])) throw new QueryError(`"${key}" must be an array of filters`);
      return { [key]: (o[key] as unknown[]).map(checkFilter) } as Filter;
    }
  }
  const member = o['member'] ?? o['dimension'];
  if (typeof member !== 'string') throw new QueryError('A filter needs "member"');
  const operator = o['operator'];
  if (typeof operator !== 'string' || !(OPERATORS as readonly string[]).includes(operator)) {
    throw new QueryError(`Unknown filter operator '${String(operator)}' for ${member}`);
  }
  const values = o['values'];
  if (
    values !== undefined &&
    !(Array.isArray(values) && values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)))
  ) {
    throw new QueryError(`"values" of the filter on ${member} must be an array of strings, numbers or booleans`);
  }
  return { member, operator: operator as Operator, ...(values !== undefined ? { values: values as FilterValue[] } : {}) };
}

function normalizeOrder(v: unknown): Array<{ id: string; desc: boolean }> {
  if (v === undefined || v === null) return [];
  const pairs: unknown[] = Array.isArray(v) ? v : Object.entries(v as Record<string, unknown>);
  return pairs.map((p) => {
    if (!Array.isArray(p) || typeof p[0] !== 'string' || (p[1] !== 'asc' && p[1] !== 'desc')) {
      throw new QueryError('"order" must be an object of member → "asc"|"desc" or an array of [member, "asc"|"desc"] pairs');
    }
    return { id: p[0], desc: p[1] === 'desc' };
  });
}
