import { QueryError } from '@plinth/semantic';
import { badValueIn } from '../../http/text-rule.js';

/** Cube's default row limit, which the engine applies when a query gives none. */
const ENGINE_DEFAULT_LIMIT = 10_000;

/**
 * The `query` of a GET (URL-encoded JSON, already decoded by the router), or of a POST body that
 * sends it as a JSON string, as Cube's gateway accepts both. The strings and numbers inside meet
 * the rule every request body meets (no NUL, no lone surrogate, no infinite number), so a GET is
 * refused where the same query by POST is: PostgreSQL refuses a NUL while DuckDB matched nothing.
 */
export function parseQueryParam(raw: string): unknown {
  let query: unknown;
  try {
    query = JSON.parse(raw);
  } catch (error) {
    throw new QueryError(`Invalid query format: ${error instanceof Error ? error.message : String(error)}`);
  }
  const problem = badValueIn(query, 'query');
  if (problem) throw new QueryError(problem);
  return query;
}

/**
 * How deep a query may nest objects and arrays (an and/or filter group takes two levels). Cube's
 * clients nest a few; the engine and the cache key walk a query recursively, and a body of
 * thousands of nested groups overflowed the stack (a 500 on load).
 */
export const MAX_QUERY_DEPTH = 64;

/**
 * How many queries one request may run: an array's queries (blending), or a compareDateRange's
 * ranges. Each is a warehouse query run at once, so a request of a thousand ran a thousand.
 */
export const MAX_QUERIES = 100;

/** Refuses a request past MAX_QUERY_DEPTH or MAX_QUERIES before anything reads it further. */
export function assertWithinBounds(request: unknown): void {
  assertShallow(request);
  const count = Array.isArray(request) ? request.length : comparedRanges(request);
  if (count > MAX_QUERIES) throw new QueryError(`A request may run at most ${MAX_QUERIES} queries; this one asks for ${count}`);
}

/** The most ranges a query's time dimensions compare: the queries a compareDateRange query fans out to. */
function comparedRanges(query: unknown): number {
  const timeDimensions = fieldOf(query, 'timeDimensions');
  let most = 1;
  for (const timeDimension of Array.isArray(timeDimensions) ? timeDimensions : []) {
    const ranges = fieldOf(timeDimension, 'compareDateRange');
    if (Array.isArray(ranges)) most = Math.max(most, ranges.length);
  }
  return most;
}

const fieldOf = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;

/** Refuses a query nested deeper than MAX_QUERY_DEPTH, by a walk that cannot overflow itself. */
function assertShallow(request: unknown): void {
  const stack: Array<[unknown, number]> = [[request, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_QUERY_DEPTH) {
      throw new QueryError(
        `The query nests objects and arrays more than ${MAX_QUERY_DEPTH} levels deep (an and/or filter group takes two)`,
      );
    }
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
}

/**
 * Applies the server's limit cap to a query or an array of queries: a limit above it is refused
 * (as the engine refuses one above 50,000), and a query without a limit gets the cap when the cap
 * is below the engine's default. Other validation is the engine's.
 */
export function capLimit(request: unknown, maxLimit: number): unknown {
  if (Array.isArray(request)) return request.map((query) => capLimit(query, maxLimit));
  if (request === null || typeof request !== 'object') return request;
  const limit = (request as Record<string, unknown>)['limit'];
  if (typeof limit === 'number' && limit > maxLimit) {
    throw new QueryError(`The query limit has been exceeded: the maximum is ${maxLimit}`);
  }
  if ((limit === undefined || limit === null) && maxLimit < ENGINE_DEFAULT_LIMIT) return { ...request, limit: maxLimit };
  return request;
}

/** Cube's cache modes, which a query (`cache`, `cacheMode`) or a load request (`cache`, as @cubejs-client/core sends it) may name. */
export const CACHE_MODES = ['stale-if-slow', 'stale-while-revalidate', 'must-revalidate', 'no-cache'] as const;
export type CacheMode = (typeof CACHE_MODES)[number];

/** Cube's cache modes that ask for data read now: `must-revalidate` is the old `renewQuery: true`, `no-cache` skips the cache. */
const RENEWING_MODES: ReadonlySet<unknown> = new Set<CacheMode>(['must-revalidate', 'no-cache']);
const KEPT_MODES: ReadonlySet<unknown> = new Set<CacheMode>(['stale-if-slow', 'stale-while-revalidate']);

/** Whether a request's cache mode asks for data read now. */
export const renewsCache = (mode: CacheMode | undefined): boolean => RENEWING_MODES.has(mode);

/**
 * Takes Cube's cache controls (`renewQuery`, `cache`, `cacheMode`) out of a query or an array of
 * queries: they say how to use the result cache, not what to answer, so a renewed query replaces
 * the plain query's cached entry rather than keeping one of its own. `renew` is true when any
 * query asks for fresh data. A value that is not valid is left in place for the engine to refuse
 * by name. `stale-if-slow` and `stale-while-revalidate` keep the cache's usual rules: no result is
 * served past its TTL, so there is never a stale one to give.
 */
export function cacheControls(request: unknown): { query: unknown; renew: boolean } {
  if (Array.isArray(request)) {
    const each = request.map(cacheControls);
    return { query: each.map((one) => one.query), renew: each.some((one) => one.renew) };
  }
  if (request === null || typeof request !== 'object') return { query: request, renew: false };
  const query = request as Record<string, unknown>;
  if (query['renewQuery'] === undefined && query['cache'] === undefined && query['cacheMode'] === undefined) {
    return { query, renew: false };
  }
  const rest = { ...query };
  let renew = false;
  if (typeof rest['renewQuery'] === 'boolean') {
    renew = rest['renewQuery'];
    delete rest['renewQuery'];
  }
  for (const key of ['cache', 'cacheMode']) {
    if (RENEWING_MODES.has(rest[key])) renew = true;
    if (RENEWING_MODES.has(rest[key]) || KEPT_MODES.has(rest[key])) delete rest[key];
  }
  return { query: rest, renew };
}

/** JSON with object keys sorted, so that queries differing only in key order share a cache entry. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
