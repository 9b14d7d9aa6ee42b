import { ApiError, badRequest } from '../../http/errors.js';

/**
 * The sizes a data model may reach (stated in the README). They bound what one request can make
 * the server hold in memory and what a build has to compile; the upload part imports them too.
 */
export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_MODEL_FILES = 5_000;
export const MAX_MODEL_BYTES = 50 * 1024 * 1024;
export const MAX_UPLOAD_FILES = 5_000;
export const MAX_PATH_LENGTH = 512;
export const MAX_MESSAGE_LENGTH = 10_000;

const MIB = 1024 * 1024;

/** Bytes of a file's content as stored and hashed: its UTF-8 encoding. */
export const sizeOf = (content: string): number => Buffer.byteLength(content, 'utf8');

/**
 * A file's content: at most 1 MiB (413), and text PostgreSQL can hold. A NUL byte cannot be stored
 * in a text column and a lone surrogate has no UTF-8 form, so both are refused rather than altered.
 */
export function checkContent(path: string, content: string): number {
  const size = sizeOf(content);
  if (size > MAX_FILE_BYTES) {
    throw new ApiError(
      'payload_too_large',
      `File ${JSON.stringify(path)} is ${size} bytes; a file may be at most 1 MiB (${MAX_FILE_BYTES} bytes)`,
    );
  }
  if (content.includes('\u0000')) throw badRequest(`File ${JSON.stringify(path)} contains a NUL byte; data model files are text`);
  if (/\p{Cs}/u.test(content)) throw badRequest(`File ${JSON.stringify(path)} is not valid UTF-8 text (it holds a lone surrogate)`);
  return size;
}

/** A whole model: at most 5,000 files and 50 MiB (422), checked before any commit is made. */
export function checkModel(fileCount: number, totalBytes: number): void {
  if (fileCount > MAX_MODEL_FILES) {
    throw new ApiError(
      'limit_exceeded',
      `The data model would hold ${fileCount} files; a data model may hold at most ${MAX_MODEL_FILES} files`,
    );
  }
  if (totalBytes > MAX_MODEL_BYTES) {
    const mib = (totalBytes / MIB).toFixed(1);
    throw new ApiError('limit_exceeded', `The data model would be ${mib} MiB; a data model may be at most ${MAX_MODEL_BYTES / MIB} MiB`);
  }
}

/** Commit messages and other free text stored as is: no NUL (PostgreSQL refuses it) nor lone surrogate. */
export function checkText(value: string, field: string): string {
  if (value.length > MAX_MESSAGE_LENGTH) throw badRequest(`${field} is longer than ${MAX_MESSAGE_LENGTH} characters`);
  if (value.includes('\u0000') || /\p{Cs}/u.test(value)) throw badRequest(`${field} holds a NUL byte or a lone surrogate`);
  return value;
}
