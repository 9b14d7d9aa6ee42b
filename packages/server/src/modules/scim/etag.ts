import { ApiError } from '../../http/errors.js';
import { etagOf } from './mappers.js';

/** Entity tags of a header (`*`, or a comma-separated list), compared weakly (RFC 9110 §8.8.3.2). */
function tags(header: string): string[] {
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .filter((t) => t !== '');
}

function matches(header: string, version: number): boolean {
  const current = etagOf(version).replace(/^W\//, '');
  return tags(header).some((t) => t === '*' || t === current);
}

/** If-Match (RFC 7644 §3.14): a write to a version other than the one the client read is 412. */
export function checkIfMatch(header: string | undefined, version: number): void {
  if (header === undefined || header.trim() === '') return;
  if (!matches(header, version)) {
    throw new ApiError('precondition_failed', `The resource has changed: its version is ${etagOf(version)}, not ${header}`);
  }
}

/** If-None-Match on GET: true when the client's copy is current, so the answer is 304. */
export function notModified(header: string | undefined, version: number): boolean {
  return header !== undefined && header.trim() !== '' && matches(header, version);
}
