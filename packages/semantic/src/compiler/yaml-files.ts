import { isMap, isNode, isScalar, LineCounter, parseDocument } from 'yaml';
import type { Diagnostics, Location } from './diagnostics.js';

/** One `cubes:` or `views:` entry with a way to point at places inside it. */
export interface RawEntry {
  readonly kind: 'cube' | 'view';
  readonly fileName: string;
  readonly value: Record<string, unknown>;
  /** Location of a path inside this entry, e.g. `['measures', 2]`. */
  locate(path: ReadonlyArray<string | number>): Location | undefined;
}

export function readModelFile(fileName: string, text: string, diagnostics: Diagnostics): RawEntry[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const pos = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
      const at = pos ? { line: pos.line, column: pos.col } : undefined;
      const where = at ? ` at line ${at.line}, column ${at.column}` : '';
      diagnostics.error(fileName, `YAML syntax error${where}: ${error.message.split('\n')[0]}`, at);
    }
    return [];
  }
  const root: unknown = doc.toJS();
  if (root === null || root === undefined) return [];
  if (typeof root !== 'object' || Array.isArray(root)) {
    diagnostics.error(fileName, 'A model file must be a mapping with `cubes:` and/or `views:` at the top level');
    return [];
  }
  // A path ending in a key points at the key (`rolling_window:`), not at its value, which may start a line later.
  const locateAt = (path: ReadonlyArray<string | number>): Location | undefined => {
    const last = path[path.length - 1];
    const parent = typeof last === 'string' ? doc.getIn(path.slice(0, -1), true) : undefined;
    const pair = isMap(parent) ? parent.items.find((item) => isScalar(item.key) && item.key.value === last) : undefined;
    const node = isNode(pair?.key) ? pair.key : doc.getIn(path, true);
    if (!isNode(node) || !node.range) return undefined;
    const pos = lineCounter.linePos(node.range[0]);
    return { line: pos.line, column: pos.col };
  };
  const entries: RawEntry[] = [];
  for (const [key, kind] of [
    ['cubes', 'cube'],
    ['views', 'view'],
  ] as const) {
    const list = (root as Record<string, unknown>)[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) {
      diagnostics.error(fileName, `\`${key}\` must be a list`, locateAt([key]));
      continue;
    }
    list.forEach((value: unknown, index) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        diagnostics.error(fileName, `Each entry of \`${key}\` must be a mapping`, locateAt([key, index]));
        return;
      }
      entries.push({
        kind,
        fileName,
        value: value as Record<string, unknown>,
        locate: (path) => locateAt([key, index, ...path]),
      });
    });
  }
  for (const key of Object.keys(root)) {
    if (key !== 'cubes' && key !== 'views') {
      diagnostics.error(fileName, `Unknown top-level key \`${key}\`: expected \`cubes\` or \`views\``, locateAt([key]));
    }
  }
  return entries;
}
