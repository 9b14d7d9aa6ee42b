import { badRequest } from '../../http/errors.js';

/** Names as a shell and Cube's configuration read them. */
export const NAME_PATTERN = '^[A-Z_][A-Z0-9_]*$';
export const MAX_NAME_LENGTH = 128;
export const MAX_VALUE_BYTES = 64 * 1024;
/** Enough for any warehouse configuration; a bound keeps one deployment's reads small. */
export const MAX_VARIABLES = 200;
/** Names that hold credentials: their values are never listed, whatever the caller asked for. */
export const ALWAYS_SECRET = /PASS|SECRET|KEY|TOKEN/;

export function checkName(name: string): void {
  if (name.length > MAX_NAME_LENGTH) throw badRequest(`Variable name ${name.slice(0, 20)}… is longer than ${MAX_NAME_LENGTH} characters`);
  if (!new RegExp(NAME_PATTERN).test(name)) {
    throw badRequest(`Variable name "${name}" must be upper-case letters, digits and underscores, not starting with a digit`);
  }
}

export function checkValue(name: string, value: string): void {
  if (value === '') throw badRequest(`Variable ${name} has an empty value: unset it instead`);
  if (Buffer.byteLength(value, 'utf8') > MAX_VALUE_BYTES) throw badRequest(`Variable ${name} is larger than 64 KiB`);
}

export const isSecret = (name: string, asked: boolean | undefined) => asked === true || ALWAYS_SECRET.test(name);

/**
 * What a listing shows of a secret, whatever its length: even two characters narrow a guess and
 * tell whether two deployments share a password; `updatedAt` says when it changed.
 */
export const MASKED = '****';
