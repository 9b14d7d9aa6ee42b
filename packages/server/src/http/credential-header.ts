import { unauthenticated } from './errors.js';
import type { CredentialKind } from './principal.js';

export interface PresentedCredential {
  kind: CredentialKind;
  secret: string;
}

export const ACCESS_TOKEN_PREFIX = 'pla_';
export const REFRESH_TOKEN_PREFIX = 'plr_';
export const SCIM_TOKEN_PREFIX = 'scim_';
export const API_KEY_PREFIX = 'sk-';
const CANONICAL_API_KEY = 'Api-Key ';

const WELL_FORMED: Record<CredentialKind, RegExp> = {
  apiKey: /^sk-[A-Za-z0-9]{20,128}$/,
  accessToken: /^pla_[A-Za-z0-9]{20,128}$/,
  scimToken: /^scim_[A-Za-z0-9]{20,128}$/,
  dataToken: /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/,
  embedToken: /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/,
};

/**
 * Reads the Authorization header into a credential kind and its secret. The scheme decides the
 * kind (`Api-Key`, `Bearer`, or none for the data API); a bearer token's prefix tells an access
 * token from a SCIM token. Every failure is a 401 whose message says what is wrong.
 */
export function parseAuthorization(header: string | undefined): PresentedCredential {
  // The form every client sends, checked without splitting the header apart.
  if (header?.startsWith(CANONICAL_API_KEY)) {
    const secret = header.slice(CANONICAL_API_KEY.length);
    if (WELL_FORMED.apiKey.test(secret)) return { kind: 'apiKey', secret };
  }
  if (header === undefined || header.trim() === '') {
    throw unauthenticated('Missing Authorization header');
  }
  const match = /^\s*(\S+)(?:\s+(\S+))?\s*$/.exec(header);
  if (!match) throw unauthenticated('Malformed Authorization header: expected "<scheme> <credential>"');
  const [, first, second] = match as unknown as [string, string, string | undefined];

  let presented: PresentedCredential;
  if (second === undefined) {
    presented = { kind: 'dataToken', secret: first };
  } else {
    const scheme = first.toLowerCase();
    if (scheme === 'api-key') presented = { kind: 'apiKey', secret: second };
    else if (scheme === 'bearer') presented = bearerKind(second);
    else throw unauthenticated(`Unsupported Authorization scheme "${first}": use Api-Key or Bearer`);
  }
  if (!WELL_FORMED[presented.kind].test(presented.secret)) {
    throw unauthenticated(`Malformed ${kindName[presented.kind]}`);
  }
  return presented;
}

/**
 * A credential given as its text alone, with no scheme to say its kind (the password of a SQL
 * connection): its form decides, as a bearer token's prefix does, and an API key is told by `sk-`.
 */
export function parseCredentialText(text: string): PresentedCredential {
  const secret = text.trim();
  if (secret === '') throw unauthenticated('Missing credential');
  const presented: PresentedCredential = secret.startsWith(API_KEY_PREFIX) ? { kind: 'apiKey', secret } : bearerKind(secret);
  if (!WELL_FORMED[presented.kind].test(presented.secret)) throw unauthenticated(`Malformed ${kindName[presented.kind]}`);
  return presented;
}

function bearerKind(token: string): PresentedCredential {
  if (token.startsWith(SCIM_TOKEN_PREFIX)) return { kind: 'scimToken', secret: token };
  if (token.startsWith(API_KEY_PREFIX)) {
    throw unauthenticated('API keys must be sent as "Authorization: Api-Key <key>", not as a bearer token');
  }
  // Cube's clients may send a data API token as `Bearer <jwt>` too; no platform token has dots.
  if (WELL_FORMED.dataToken.test(token)) return { kind: 'dataToken', secret: token };
  return { kind: 'accessToken', secret: token };
}

export const kindName: Record<CredentialKind, string> = {
  apiKey: 'API key',
  accessToken: 'access token',
  scimToken: 'SCIM token',
  dataToken: 'data API token',
  embedToken: 'embed token',
};
