import { ApiError, badRequest } from '../../http/errors.js';

/*
 * PROVISIONAL until i13-model is merged: the path rules and file limits belong to the data-model
 * module (modules/data-model/limits.ts and paths.ts); this file is replaced by imports of them.
 */
export const MAX_FILE_BYTES = 1024 * 1024;

export function assertValidPath(path: string): void {
  const reason = invalidPathReason(path);
  if (reason) throw badRequest(`Invalid path ${JSON.stringify(path)}: ${reason}`);
}

function invalidPathReason(path: string): string | null {
  if (path.length < 1 || path.length > 512) return 'must be 1 to 512 characters long';
  if (path.startsWith('/')) return 'must be relative (no leading /)';
  if (path.includes('\\')) return 'must use / between segments, not \\';
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'must not contain NUL or control characters';
  for (const segment of path.split('/')) {
    if (segment === '') return 'must not contain an empty segment';
    if (segment === '.' || segment === '..') return `must not contain a "${segment}" segment`;
  }
  return null;
}

export function assertFileSize(path: string, bytes: number): void {
  if (bytes > MAX_FILE_BYTES) {
    throw new ApiError('payload_too_large', `File ${path} is ${bytes} bytes; a file may be at most ${MAX_FILE_BYTES} bytes (1 MiB)`);
  }
}
