import { describe, expect, it } from 'vitest';
import { diffTrees, mergeTrees } from './merge.js';

// One file `f` per row: its hash in base, ours and theirs (absent: undefined), and the outcome.
const rows: Array<[string, string | undefined, string | undefined, string | undefined, string | undefined | 'conflict']> = [
  ['unchanged everywhere', 'a', 'a', 'a', 'a'],
  ['changed on ours only', 'a', 'b', 'a', 'b'],
  ['changed on theirs only', 'a', 'a', 'b', 'b'],
  ['the same change on both sides', 'a', 'b', 'b', 'b'],
  ['different changes on both sides', 'a', 'b', 'c', 'conflict'],
  ['added on ours', undefined, 'b', undefined, 'b'],
  ['added on theirs', undefined, undefined, 'b', 'b'],
  ['added the same on both', undefined, 'b', 'b', 'b'],
  ['added differently on both', undefined, 'b', 'c', 'conflict'],
  ['deleted on ours', 'a', undefined, 'a', undefined],
  ['deleted on theirs', 'a', 'a', undefined, undefined],
  ['deleted on both', 'a', undefined, undefined, undefined],
  ['deleted on ours, changed on theirs', 'a', undefined, 'c', 'conflict'],
  ['changed on ours, deleted on theirs', 'a', 'b', undefined, 'conflict'],
];

const tree = (hash: string | undefined) => (hash === undefined ? {} : { f: hash });

describe('mergeTrees', () => {
  it.each(rows)('%s', (_name, base, ours, theirs, outcome) => {
    const result = mergeTrees({ other: 'x', ...tree(base) }, { other: 'x', ...tree(ours) }, { other: 'x', ...tree(theirs) });
    if (outcome === 'conflict') expect(result).toEqual({ entries: null, conflicts: ['f'] });
    else expect(result).toEqual({ entries: { other: 'x', ...tree(outcome) }, conflicts: [] });
  });

  it('edits to different files merge cleanly; conflicts name every file, sorted', () => {
    expect(mergeTrees({ a: '1', b: '1' }, { a: '2', b: '1' }, { a: '1', b: '2' })).toEqual({ entries: { a: '2', b: '2' }, conflicts: [] });
    expect(mergeTrees({ a: '1', b: '1' }, { a: '2', b: '2' }, { a: '3', b: '3', c: '1' }).conflicts).toEqual(['a', 'b']);
  });
});

describe('diffTrees', () => {
  it('lists added, modified and deleted files by path', () => {
    expect(diffTrees({ a: '1', b: '1', c: '1' }, { b: '2', c: '1', d: '1' })).toEqual([
      { path: 'a', change: 'deleted', oldHash: '1', newHash: null },
      { path: 'b', change: 'modified', oldHash: '1', newHash: '2' },
      { path: 'd', change: 'added', oldHash: null, newHash: '1' },
    ]);
  });
});
