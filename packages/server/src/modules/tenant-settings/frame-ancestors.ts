import { badRequest } from '../../http/errors.js';

export const MAX_FRAME_ANCESTORS = 50;

/**
 * The origins allowed to frame embed pages, checked one by one: each must be a plain http(s)
 * origin (scheme, host, optional port; no path, query, fragment or credentials), since it goes
 * into a Content-Security-Policy header as it is. The first that is not is named in the refusal.
 */
export function validFrameAncestors(origins: readonly string[]): string[] {
  if (origins.length > MAX_FRAME_ANCESTORS) throw badRequest(`embedFrameAncestors holds at most ${MAX_FRAME_ANCESTORS} origins`);
  const valid: string[] = [];
  for (const origin of origins) {
    const problem = `embedFrameAncestors: ${JSON.stringify(origin)} is not a plain http(s) origin such as https://app.example.com`;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw badRequest(problem);
    }
    const bare = origin.endsWith('/') ? origin.slice(0, -1) : origin;
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== bare.toLowerCase() || /[\s;,']/.test(origin)) {
      throw badRequest(problem);
    }
    if (!valid.includes(url.origin)) valid.push(url.origin);
  }
  return valid;
}
