import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError } from '../../core/errors.js';

/** The model files of a project directory: path (relative to it, `/`-separated) → content and hash. */
export type LocalModel = Map<string, { content: string; hash: string }>;

/** Where a deploy's files live inside `--directory`: exactly the files under it, as the server stores them. */
export const MODEL_FOLDER = 'model';

export const sha256 = (content: string) => createHash('sha256').update(content, 'utf8').digest('hex');

/**
 * Reads every file under `<directory>/model/`, following symbolic links, skipping dotfiles and
 * dot-folders (editor and VCS state is not part of a model). Sorted by path, so runs agree.
 */
export async function readLocalModel(directory: string): Promise<LocalModel> {
  const root = join(directory, MODEL_FOLDER);
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) {
    throw new CliError(
      `${root} is not a directory`,
      `--directory must name a project folder that holds the data model in ${MODEL_FOLDER}/`,
    );
  }
  const paths: string[] = [];
  await walk(root, MODEL_FOLDER, paths);
  paths.sort();
  const model: LocalModel = new Map();
  for (const path of paths) {
    const content = await readFile(join(directory, path), 'utf8');
    model.set(path, { content, hash: sha256(content) });
  }
  return model;
}

async function walk(absolute: string, relative: string, into: string[]): Promise<void> {
  for (const entry of await readdir(absolute, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = join(absolute, entry.name);
    const path = `${relative}/${entry.name}`;
    const kind = entry.isSymbolicLink() ? await stat(full).catch(() => null) : entry;
    if (kind?.isDirectory()) await walk(full, path, into);
    else if (kind?.isFile()) into.push(path);
  }
}

/** What a deploy will do, from the local files and the branch's hashes, for the line on stderr. */
export function planOf(local: LocalModel, remote: Record<string, string>, keepMissing: boolean) {
  let changed = 0;
  for (const [path, { hash }] of local) if (remote[path] !== hash) changed++;
  const toDelete = keepMissing ? 0 : Object.keys(remote).filter((path) => !local.has(path)).length;
  return { changed, unchanged: local.size - changed, toDelete };
}
