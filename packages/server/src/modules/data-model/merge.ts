import type { TreeEntries } from '../../store/schema.js';

export type MergeResult = { entries: TreeEntries; conflicts: [] } | { entries: null; conflicts: string[] };

/**
 * Three-way merge by file, as git merges trees when no file needs a line merge: for each path,
 * a side that left the base's version as it was takes the other side's; both sides making the same
 * change agree; two different changes (an edit and another edit, or an edit and a delete) are a
 * conflict. Files are never merged line by line: a person resolves a conflicting file.
 * `undefined` stands for an absent file throughout. Pure: no store, so it is tested by table.
 */
export function mergeTrees(base: TreeEntries, ours: TreeEntries, theirs: TreeEntries): MergeResult {
  const merged: TreeEntries = {};
  const conflicts: string[] = [];
  const paths = new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(theirs)]);
  for (const path of paths) {
    const b = base[path];
    const o = ours[path];
    const t = theirs[path];
    let result: string | undefined;
    if (o === t) result = o;
    else if (o === b) result = t;
    else if (t === b) result = o;
    else {
      conflicts.push(path);
      continue;
    }
    if (result !== undefined) merged[path] = result;
  }
  if (conflicts.length > 0) return { entries: null, conflicts: conflicts.sort() };
  return { entries: merged, conflicts: [] };
}

export type Change = { path: string; change: 'added' | 'modified' | 'deleted'; oldHash: string | null; newHash: string | null };

/** What changed from one tree to another, by path. */
export function diffTrees(from: TreeEntries, to: TreeEntries): Change[] {
  const changes: Change[] = [];
  const paths = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
  for (const path of paths) {
    const a = from[path] ?? null;
    const b = to[path] ?? null;
    if (a === b) continue;
    changes.push({ path, change: a === null ? 'added' : b === null ? 'deleted' : 'modified', oldHash: a, newHash: b });
  }
  return changes;
}
