import { badRequest } from '../../http/errors.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a URL may carry an issuer's identity or keys: https, or http on this machine only (a
 * local issuer in development and tests). Plain http elsewhere would let anyone on the path swap
 * the keys and sign in as any user.
 */
export function isSecureUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

export function demandSecureUrl(field: string, value: string | null | undefined): void {
  if (value == null || isSecureUrl(value)) return;
  throw badRequest(`${field} must be an https URL (http only for localhost or 127.0.0.1), not ${JSON.stringify(value)}`);
}
