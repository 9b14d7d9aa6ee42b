import type { TreeEntries } from '../../store/schema.js';
import type { DataModelStore } from '../data-model/public.js';

/**
 * The manifest's paths whose content the server lacks: those whose hash differs from the base
 * tree's and is not already a blob of the account (a file moved or copied travels no bytes).
 */
export async function filesToSend(store: DataModelStore, accountId: number, base: TreeEntries, manifest: TreeEntries): Promise<string[]> {
  const differing = Object.entries(manifest).filter(([path, hash]) => base[path] !== hash);
  if (differing.length === 0) return [];
  const known = await store.knownBlobs(accountId, [...new Set(differing.map(([, hash]) => hash))]);
  return differing
    .filter(([, hash]) => !known.has(hash))
    .map(([path]) => path)
    .sort();
}

/** What a deploy changed, path by path, relative to the tree it was based on. */
export function changesBetween(base: TreeEntries, next: TreeEntries) {
  const added: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];
  for (const [path, hash] of Object.entries(next)) {
    if (base[path] === undefined) added.push(path);
    else if (base[path] !== hash) modified.push(path);
  }
  for (const path of Object.keys(base)) if (next[path] === undefined) deleted.push(path);
  return { added: added.sort(), modified: modified.sort(), deleted: deleted.sort() };
}
