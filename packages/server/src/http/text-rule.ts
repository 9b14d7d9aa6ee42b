import { ApiError } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A bulk route names the body array whose entries succeed or fail one by one: the text rule
     * skips those entries, and the route checks each with `badValueIn` so only that entry fails.
     */
    bulkEntries?: string;
    /**
     * The entries' schema in the spec is the single-entry body, checked by the route one entry at
     * a time rather than by the body's validator (which would fail the whole request).
     */
    entriesTypedByRoute?: boolean;
  }
}

/**
 * In unicode mode a paired surrogate is one code point, so the class matches only a lone one.
 * PostgreSQL refuses a NUL byte in text (a 500 if it got that far) and a lone surrogate cannot be
 * encoded as UTF-8 (it would be stored as U+FFFD, silently changing what was sent).
 */
const BAD_TEXT = /[\0\uD800-\uDFFF]/u;

export function badTextReason(text: string): string | undefined {
  if (!BAD_TEXT.test(text)) return undefined;
  return text.includes('\0') ? 'must not contain a NUL character (U+0000)' : 'must not contain an unpaired UTF-16 surrogate';
}

/**
 * The first string (value or property name) with a NUL or lone surrogate, or number that is not
 * finite (`1e400` in JSON parses as Infinity), anywhere in `value`, as a sentence naming where it
 * is. Iterative: a deeply nested body must not overflow the stack.
 */
export function badValueIn(value: unknown, where: string, skip?: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, where]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      const reason = badTextReason(item);
      if (reason) return `${path || 'value'} ${reason}`;
    } else if (typeof item === 'number') {
      if (!Number.isFinite(item)) return `${path || 'value'} must be a finite number`;
    } else if (Array.isArray(item)) {
      if (item === skip) continue;
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], `${path}[${i}]`]);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const reason = badTextReason(key);
        if (reason) return `A property name in ${path || 'the body'} ${reason}`;
        stack.push([child, path ? `${path}.${key}` : key]);
      }
    }
  }
  return undefined;
}

/** The 400 for a value the rule refuses; SCIM reads it as `invalidValue`. */
export function badValue(message: string): ApiError {
  return new ApiError('validation_failed', message, { scimType: 'invalidValue' });
}

/** Throws the rule's 400 when `value` holds a refused string or number (a bulk entry, say). */
export function assertGoodValues(value: unknown, where: string): void {
  const problem = badValueIn(value, where);
  if (problem) throw badValue(problem);
}

const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;
/** An escape of a byte of 0x80 or more: the only kind that can start or continue a multi-byte sequence. */
const HIGH_ESCAPE = /%[89A-Fa-f][0-9A-Fa-f]/;

/**
 * Query strings and form bodies are decoded leniently (an escape that is not UTF-8, such as a
 * lone surrogate's `%ED%A0%80`, is kept as is or becomes U+FFFD), so the rule reads the raw text:
 * each run of escapes must decode as UTF-8. A `%` that starts no escape is left alone.
 */
export function badEncodingIn(raw: string, kind: string): string | undefined {
  // Escapes of ASCII bytes each decode alone, so only a string with a high escape can fail; a query
  // of URL-encoded JSON (a data API load) usually has none, and is decided by one regex scan.
  if (!raw.includes('%') || !HIGH_ESCAPE.test(raw)) return undefined;
  for (const pair of raw.split('&')) {
    for (const run of pair.match(ESCAPES) ?? []) {
      try {
        decodeURIComponent(run);
      } catch {
        const name = pair.split('=')[0]!;
        return `${kind} ${safeName(name)} is not UTF-8 once percent-decoded (a lone surrogate or a cut sequence)`;
      }
    }
  }
  return undefined;
}

function safeName(name: string): string {
  try {
    const decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    return badTextReason(decoded) ? 'name' : decoded;
  } catch {
    return name;
  }
}
