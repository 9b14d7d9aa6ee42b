import type { Diagnostics, Location } from './diagnostics.js';
import { isObj, str } from './fields.js';
import type { RawEntry } from './yaml-files.js';

/**
 * Lists merged by member name, as Cube merges them along `extends`: the child's entry replaces the
 * parent's of the same name in place, new entries follow. Everything else a child does not set is
 * inherited whole (Cube puts the parent on the child's prototype chain), except the name.
 */
const NAMED_LISTS = ['measures', 'dimensions', 'segments', 'joins', 'pre_aggregations', 'preAggregations', 'hierarchies'];
/** Lists Cube concatenates, parent first: a view's `cubes` and `folders`, and access policies. */
const CONCATENATED_LISTS = ['cubes', 'folders', 'access_policy', 'accessPolicy'];
const NOT_INHERITED = new Set(['name', 'extends']);
const SOURCE_KEYS = ['sql', 'sql_table', 'sqlTable'];

/** Where an element of a merged list came from, so errors still point into the file that wrote it. */
interface Origin {
  readonly entry: RawEntry;
  readonly path: ReadonlyArray<string | number>;
}

/** The name of the cube or view an entry extends: `extends: base`, or Cube's reference spellings `{base}` and `${base}`. */
function parentName(entry: RawEntry): string | undefined {
  const raw = entry.value['extends'];
  if (raw === undefined || raw === null) return undefined;
  const text = str(raw)?.trim() ?? '';
  const match = /^\$?\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}$/.exec(text);
  return match?.[1] ?? text;
}

/** Replaces every entry that `extends` another by the merged definition; a missing parent or a cycle is an error. */
export function resolveExtends(entries: readonly RawEntry[], diagnostics: Diagnostics): RawEntry[] {
  const byName = new Map<string, RawEntry>();
  for (const entry of entries) {
    const name = str(entry.value['name']);
    if (name !== undefined && !byName.has(name)) byName.set(name, entry);
  }
  const resolved = new Map<RawEntry, RawEntry | undefined>();
  const resolve = (entry: RawEntry, chain: readonly string[]): RawEntry | undefined => {
    if (resolved.has(entry)) return resolved.get(entry);
    const name = str(entry.value['name']) ?? '(unnamed)';
    const parent = parentName(entry);
    let result: RawEntry | undefined = entry;
    if (parent !== undefined) {
      const what = entry.kind === 'view' ? 'View' : 'Cube';
      const parentEntry = byName.get(parent);
      if (parent === '' || !parentEntry) {
        diagnostics.error(
          entry.fileName,
          `${what} ${name} extends ${parent || '(nothing)'}, which does not exist`,
          entry.locate(['extends']),
        );
        result = undefined;
      } else if (chain.includes(parent) || parent === name) {
        const cycle = [...chain.slice(chain.indexOf(parent)), name, parent];
        diagnostics.error(entry.fileName, `Circular extends: ${cycle.join(' -> ')}`, entry.locate(['extends']));
        result = undefined;
      } else if (parentEntry.kind !== entry.kind) {
        diagnostics.error(
          entry.fileName,
          `${what} ${name} extends ${parent}, which is a ${parentEntry.kind}: a cube can only extend a cube and a view a view`,
          entry.locate(['extends']),
        );
        result = undefined;
      } else {
        const base = resolve(parentEntry, [...chain, name]);
        result = base ? merge(base, entry) : undefined;
      }
    }
    resolved.set(entry, result);
    return result;
  };
  return entries.flatMap((entry) => {
    const result = resolve(entry, []);
    return result ? [result] : [];
  });
}

function merge(parent: RawEntry, child: RawEntry): RawEntry {
  const value: Record<string, unknown> = {};
  const origins = new Map<string, Origin[]>();
  for (const [key, parentValue] of Object.entries(parent.value)) if (!NOT_INHERITED.has(key)) value[key] = parentValue;
  // A child that names its own source (`sql` or `sql_table`) replaces the parent's, whichever spelling the parent used.
  if (SOURCE_KEYS.some((key) => child.value[key] !== undefined)) for (const key of SOURCE_KEYS) delete value[key];
  for (const [key, childValue] of Object.entries(child.value)) value[key] = childValue;
  delete value['extends'];
  for (const key of [...NAMED_LISTS, ...CONCATENATED_LISTS]) {
    const parentList = listOf(parent.value[key], parent, key);
    const childList = listOf(child.value[key], child, key);
    if (!parentList || !childList || (parent.value[key] === undefined && child.value[key] === undefined)) continue;
    const merged = CONCATENATED_LISTS.includes(key) ? [...parentList, ...childList] : mergeByName(parentList, childList);
    value[key] = merged.map((item) => item.value);
    origins.set(
      key,
      merged.map((item) => item.origin),
    );
  }
  const locate = (path: ReadonlyArray<string | number>): Location | undefined => {
    const [key, index, ...rest] = path;
    const origin = typeof key === 'string' && typeof index === 'number' ? origins.get(key)?.[index] : undefined;
    if (origin) return origin.entry.locate([...origin.path, ...rest]);
    if (typeof key === 'string' && child.value[key] === undefined && parent.value[key] !== undefined) return parent.locate(path);
    return child.locate(path);
  };
  return { kind: child.kind, fileName: child.fileName, value, locate };
}

interface ListItem {
  readonly name?: string;
  readonly value: unknown;
  readonly origin: Origin;
}

/** A list in either spelling Cube accepts (a YAML list, or a map keyed by name), or undefined when absent or malformed. */
function listOf(raw: unknown, entry: RawEntry, key: string): ListItem[] | undefined {
  if (raw === undefined || raw === null) return [];
  if (Array.isArray(raw)) {
    return raw.map((item: unknown, index) => ({
      name: isObj(item) ? str(item['name']) : undefined,
      value: item,
      origin: { entry, path: [key, index] },
    }));
  }
  if (isObj(raw)) {
    return Object.entries(raw).map(([name, item]) => ({
      name,
      value: isObj(item) ? { ...item, name } : item,
      origin: { entry, path: [key, name] },
    }));
  }
  return undefined;
}

function mergeByName(parentList: readonly ListItem[], childList: readonly ListItem[]): ListItem[] {
  const merged = [...parentList];
  for (const item of childList) {
    const at = item.name === undefined ? -1 : merged.findIndex((p) => p.name === item.name);
    if (at >= 0) merged[at] = item;
    else merged.push(item);
  }
  return merged;
}
