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

/** JSON with object keys sorted, so that queries differing only in key order share a cache entry. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
