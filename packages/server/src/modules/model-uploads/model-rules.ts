import { ApiError, badRequest } from '../../http/errors.js';

/*
 * PROVISIONAL until i13-model is merged: the path rules and file limits belong to the data-model
 * module (modules/data-model/limits.ts and paths.ts), under these names; this file then goes.
 */
export const MAX_FILE_BYTES = 1024 * 1024;

export function checkPath(path: string): string {
  const problem = pathProblem(path);
  if (problem) throw badRequest(`Invalid path ${JSON.stringify(path)}: ${problem}`);
  return path;
}

function pathProblem(path: string): string | null {
  if (path.length < 1 || path.length > 512) return 'it must be 1 to 512 characters long';
  if (path.startsWith('/')) return 'it is absolute';
  if (path.includes('\\')) return 'it contains a backslash';
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'it contains a NUL byte or a control character';
  for (const segment of path.split('/')) {
    if (segment === '') return 'it has an empty segment';
    if (segment === '.' || segment === '..') return `it has a "${segment}" segment`;
  }
  return null;
}

export function checkContent(path: string, content: string): number {
  const size = Buffer.byteLength(content, 'utf8');
  if (size > MAX_FILE_BYTES)
    throw new ApiError('payload_too_large', `File ${JSON.stringify(path)} is ${size} bytes; a file may be at most 1 MiB`);
  if (content.includes('\u0000')) throw badRequest(`File ${JSON.stringify(path)} contains a NUL byte`);
  return size;
}
