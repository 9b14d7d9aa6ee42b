import { badRequest } from '../../http/errors.js';
import { isValidEmail } from '../users/service.js';

/** Section 2.4 and 8: lowercase, 5 to 36 characters, a letter first, a letter or digit last. */
export const EMBED_TENANT_NAME = /^[a-z][a-z0-9-]{3,34}[a-z0-9]$/;
export const EMBED_TENANT_NAME_RULE =
  'embedTenantName must be 5 to 36 characters of a-z, 0-9 and -, starting with a letter and ending with a letter or digit';
export const MAX_EXTERNAL_ID = 255;

/** Section 2.4: externalIds are compared lowercased and trimmed, so " Ann " and "ann" are one user. */
export function normaliseExternalId(raw: string): string {
  const id = raw.trim().toLowerCase();
  if (id === '') throw badRequest('externalId must not be empty or only whitespace');
  if (id.length > MAX_EXTERNAL_ID) throw badRequest(`externalId must be at most ${MAX_EXTERNAL_ID} characters`);
  return id;
}

export function checkEmail(raw: string): string {
  const email = raw.trim();
  if (!isValidEmail(email)) throw badRequest(`email "${raw}" is not a valid email address`);
  return email;
}

/**
 * Section 2.5 rule 4: only the syntax is checked, an absolute http(s) URL with a host; the server
 * never fetches it (the browser does, and falls back to initials).
 */
export function checkPicture(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('userProfile.picture must be an absolute http:// or https:// URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '' || /\s/.test(raw)) {
    throw badRequest('userProfile.picture must be an absolute http:// or https:// URL');
  }
  return raw;
}

/** The first name that appears twice, for the "duplicate name" rejections of 2.6, 2.8 and 2.9. */
export function assertNoDuplicates(names: string[], field: string): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw badRequest(`Duplicate name "${name}" in ${field}`);
    seen.add(name);
  }
}

/** Section 2.7 rule 3, verbatim: the unresolved names in request order, joined by ", ". */
export function groupsNotFound(missing: string[]) {
  return badRequest(`Groups with names ${missing.join(', ')} not found`);
}

/** Section 2.6 rule 1, verbatim. */
export const attributesNotFound = () => badRequest('User attributes not found');

/** Section 2.8 rule 1, verbatim. */
export const cannotChangeType = () => badRequest('cannot change type');
