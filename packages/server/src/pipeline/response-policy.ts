import { pathOf, type AccessEntry } from '../http/logger.js';
import type { ResponsePolicy } from './context.js';

/** Our HTML pages hold no script and load nothing from elsewhere; no other site may frame them. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The embed pages' CSP: scripts, styles and connections to this server only (no inline script;
 * inline styles for the charts' drawing), images also from http(s) (the user's avatar is loaded
 * from the customer's URL), and framing by `frameAncestors`: the account's origins, else any.
 */
export function embedPageCsp(frameAncestors: readonly string[] | null): string {
  const ancestors = frameAncestors === null ? '*' : frameAncestors.length ? frameAncestors.join(' ') : "'none'";
  return (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https: http:; " +
    `connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors ${ancestors}`
  );
}

const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;
const NO_STORE = { 'cache-control': 'no-store' } as const;
/** Until the route sets the account's own frame-ancestors, an embed page carries the default (any origin). */
const EMBED_PAGE = { 'content-security-policy': embedPageCsp(null), 'referrer-policy': 'no-referrer' } as const;
const PAGE = { 'content-security-policy': PAGE_CSP, 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' } as const;

/** The headers of each policy, built once: the common one is asked for on every request. */
const byPolicy = new Map<string, Readonly<Record<string, string>>>();

/**
 * The headers a response carries under its policy, beside its request id: `nosniff` always, so a
 * browser never runs a body as something other than its declared type; `no-store` when it carries
 * a secret; a strict CSP with `frame-ancestors 'none'` on a page of ours; the embed pages' own CSP.
 */
export function policyHeaders(policy: ResponsePolicy): Readonly<Record<string, string>> {
  const name = `${policy.carriesSecret ? 's' : ''}${policy.page ? 'p' : ''}${policy.embedPage ? 'e' : ''}`;
  let headers = byPolicy.get(name);
  if (!headers) {
    headers = Object.freeze({
      ...NOSNIFF,
      ...(policy.carriesSecret ? NO_STORE : {}),
      ...(policy.page ? PAGE : {}),
      ...(policy.embedPage ? EMBED_PAGE : {}),
    });
    byPolicy.set(name, headers);
  }
  return headers;
}

/** Every header the pipeline sets on a response, the request id first. */
export function responseHeaders(policy: ResponsePolicy, requestId: string): Record<string, string> {
  return { 'x-request-id': requestId, ...policyHeaders(policy) };
}

/** Where access lines go (http/logger.ts writes them as JSON lines). */
export interface AccessLog {
  access(entry: AccessEntry): void;
}

/** The access line of a finished request, at the level its policy says; the URL's query string is left out. */
export function accessEntry(
  policy: ResponsePolicy,
  requestId: string,
  method: string,
  url: string,
  status: number,
  ms: number,
): AccessEntry {
  return { reqId: requestId, method, path: pathOf(url), status, ms: Math.round(ms), level: policy.accessLogLevel };
}
