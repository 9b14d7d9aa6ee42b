import type { DbtColumn } from './types.js';

/**
 * dbt's doc blocks (`{% docs name %}…{% enddocs %}` in .md files) and the `{{ doc('name') }}`
 * references descriptions make to them. Substituting a declared block is reading, not running
 * Jinja; it makes a description read from files the same as the one dbt writes to its manifest.
 */
const BLOCK = /\{%-?\s*docs\s+([A-Za-z_][A-Za-z0-9_]*)\s*-?%\}([\s\S]*?)\{%-?\s*enddocs\s*-?%\}/g;
const REFERENCE = /\{\{-?\s*doc\(\s*(?:(['"])[^'"]+\1\s*,\s*)?(['"])([^'"]+)\2\s*\)\s*-?\}\}/g;

/** Adds the doc blocks of one file; dbt strips the whitespace around a block's text. */
export function readDocBlocks(text: string, into: Map<string, string>): void {
  for (const match of text.matchAll(BLOCK)) into.set(match[1]!, match[2]!.trim());
}

/** A description with each reference to a known block replaced by the block; unknown ones stay as written. */
export function withDocs(description: string | null, blocks: ReadonlyMap<string, string>): string | null {
  if (description === null || blocks.size === 0) return description;
  return description.replace(REFERENCE, (reference: string, _p: string, _q: string, name: string) => blocks.get(name) ?? reference);
}

export function columnsWithDocs(columns: DbtColumn[], blocks: ReadonlyMap<string, string>): DbtColumn[] {
  return columns.map((c) => ({ ...c, description: withDocs(c.description, blocks) }));
}
