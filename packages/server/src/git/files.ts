import { lstat, readdir } from 'node:fs/promises';
import { CheckoutFiles, CheckoutPathError } from './checkout-files.js';
import { join, posix } from 'node:path';
import { GitSourceError } from './run-git.js';

export interface TreeLimits {
  maxBytes: number;
  maxFiles: number;
}

const DEFAULT_LIMITS: TreeLimits = { maxBytes: 200 * 1024 * 1024, maxFiles: 20_000 };

/**
 * Counts the files and bytes of a checkout (git's own directory excluded) and refuses it past the
 * limits, so a huge repository fails with a message instead of filling the disk downstream.
 */
export async function measureTree(dir: string, limits: TreeLimits, remote: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for await (const entry of walk(dir, '')) {
    files += 1;
    bytes += entry.size;
    if (files > limits.maxFiles) throw new GitSourceError('limit', `${remote} has more than ${limits.maxFiles} files`);
    if (bytes > limits.maxBytes) throw new GitSourceError('limit', `${remote} is larger than ${mib(limits.maxBytes)}`);
  }
  return { files, bytes };
}

/**
 * The text files under `folder` of a checkout: path relative to `folder` → content. Files that are
 * not UTF-8 text are skipped; `folder` may not climb out of the checkout, and neither may a link
 * anywhere on the way (CheckoutFiles refuses it, naming the path).
 */
export async function readFiles(dir: string, folder = '', limits: Partial<TreeLimits> = {}): Promise<Map<string, string>> {
  const { maxBytes, maxFiles } = { ...DEFAULT_LIMITS, ...limits };
  const base = normalizeFolder(folder);
  const shown = `Folder "${base || '.'}"`;
  try {
    const checkout = await CheckoutFiles.open(dir, base);
    if (!(await checkout.isDirectory())) throw new GitSourceError('missing-folder', `${shown} does not exist in the repository`);
    const files = new Map<string, string>();
    let bytes = 0;
    for (const entry of await checkout.list()) {
      if (files.size >= maxFiles) throw new GitSourceError('limit', `${shown} has more than ${maxFiles} files`);
      bytes += entry.size;
      if (bytes > maxBytes) throw new GitSourceError('limit', `${shown} is larger than ${mib(maxBytes)}`);
      const content = (await checkout.readBytes(entry.path))!;
      if (content.includes(0)) continue;
      const text = content.toString('utf8');
      if (text.includes('\uFFFD')) continue;
      files.set(entry.path, text);
    }
    return files;
  } catch (error) {
    if (error instanceof CheckoutPathError) throw new GitSourceError('invalid', error.message);
    throw error;
  }
}

/** A folder inside the repository, in / form without leading or trailing slashes; `..` is refused. */
export function normalizeFolder(folder: string): string {
  const trimmed = folder
    .replace(/\\/g, '/')
    .replace(/^\.?\/+/, '')
    .replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '.') return '';
  const normal = posix.normalize(trimmed);
  if (normal === '..' || normal.startsWith('../') || posix.isAbsolute(normal) || normal.split('/').includes('.git')) {
    throw new GitSourceError('invalid', `Invalid folder "${folder}": it must be a folder inside the repository`);
  }
  return normal;
}

interface WalkedFile {
  absolute: string;
  relative: string;
  size: number;
}

async function* walk(absolute: string, relative: string): AsyncGenerator<WalkedFile> {
  const entries = await readdir(absolute, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (relative === '' && entry.name === '.git') continue;
    const childAbsolute = join(absolute, entry.name);
    const childRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) yield* walk(childAbsolute, childRelative);
    else if (entry.isFile()) yield { absolute: childAbsolute, relative: childRelative, size: (await lstat(childAbsolute)).size };
  }
}

function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MiB`;
}
