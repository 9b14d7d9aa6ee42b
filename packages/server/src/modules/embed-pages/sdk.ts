import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { notFound } from '../../http/errors.js';

/** Where `npm run build` bundles the embedding SDK (packages/embed/dist), from src/ or dist/ alike. */
export const SDK_FILE = fileURLToPath(new URL('../../../../embed/dist/plinth-embed.js', import.meta.url));

export interface SdkBuild {
  body: Buffer;
  /** A strong validator of the body: the file is not content-hashed, so caches revalidate it. */
  etag: string;
}

/** The SDK bundle, or null when the checkout has not been built. */
export function readSdk(file = SDK_FILE): SdkBuild | null {
  let body: Buffer;
  try {
    body = readFileSync(file);
  } catch {
    return null;
  }
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/**
 * How `/embed/sdk.js` is served: a module script host pages on any origin load (so CORS and
 * cross-origin resource policy allow it; it holds no secret), and, its URL being stable across
 * releases, revalidated on each use (`no-cache` with the ETag) instead of cached for long.
 */
export const SDK_HEADERS = {
  'content-type': 'text/javascript; charset=utf-8',
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
  'cache-control': 'no-cache',
} as const;

/** Whether an `If-None-Match` header names this ETag (a list, or `*`). */
export function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',').map((t) => t.trim().replace(/^W\//, ''));
  return tags.includes(etag) || tags.includes('*');
}

/** The answer to `GET /embed/sdk.js`: the bundle, a 304 when the client's copy is current, a 404 naming the fix. */
export function sdkAnswer(built: SdkBuild | null, ifNoneMatch: string | string[] | undefined) {
  if (!built) throw notFound('The embedding SDK is not built on this server: run `npm run build`');
  const headers = { ...SDK_HEADERS, etag: built.etag };
  return matchesEtag(ifNoneMatch, built.etag) ? { status: 304, headers, body: '' } : { status: 200, headers, body: built.body };
}
