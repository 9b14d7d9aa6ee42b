import { QueryError } from '@plinth/semantic';

/** Cube's default row limit, which the engine applies when a query gives none. */
const ENGINE_DEFAULT_LIMIT = 10_000;

/** The `query` of a GET: URL-encoded JSON, already decoded by the router. */
export function parseQueryParam(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new QueryError(`Invalid query format: ${error instanceof Error ? error.message : String(error)}`);
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

/** Cube's cache modes that ask for data read now: `must-revalidate` is the old `renewQuery: true`, `no-cache` skips the cache. */
const RENEWING_MODES: ReadonlySet<unknown> = new Set(['must-revalidate', 'no-cache']);
const KEPT_MODES: ReadonlySet<unknown> = new Set(['stale-if-slow', 'stale-while-revalidate']);

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
