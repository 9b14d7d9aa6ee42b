import type { Diagnostics } from './diagnostics.js';
import { isObj, str, type Obj } from './fields.js';
import { KEYWORDS, snakeCase, type ContextName, type Keyword, type Nested } from './keywords.js';
import type { RawEntry } from './yaml-files.js';

type Path = ReadonlyArray<string | number>;

/**
 * Checks every key of a cube or view entry against the keyword table: unknown keys and keywords
 * Plinth does not implement are compile errors naming the file, the place and the keyword.
 * Returns the entry with keyword keys in snake_case, so readers see one spelling whether the
 * model said `sqlTable` (JavaScript, or YAML written that way) or `sql_table`.
 */
export function checkKeywords(entry: RawEntry, diagnostics: Diagnostics): RawEntry {
  const owner = `${entry.kind} ${str(entry.value['name']) ?? '(unnamed)'}`;
  const locate = (path: Path): ReturnType<RawEntry['locate']> =>
    entry.locate(path) ?? entry.locate(path.map((segment) => (typeof segment === 'string' ? camelCase(segment) : segment)));
  const walk = (context: ContextName, value: Obj, path: Path, label: string): Obj => {
    const known = KEYWORDS[context];
    // Entries, not assignments: a key named `__proto__` must stay a key (and be reported), not become a prototype.
    const out: Array<[string, unknown]> = [];
    const seen = new Set<string>();
    for (const [key, child] of Object.entries(value)) {
      const keyword = snakeCase(key);
      const spec: Keyword | undefined = Object.hasOwn(known, keyword) ? known[keyword] : undefined;
      const where = `${owner}${label ? `, ${label}` : ''}`;
      const at = locate([...path, key]);
      if (spec === undefined) {
        diagnostics.error(entry.fileName, `${where}: unknown keyword \`${key}\` (expected one of ${Object.keys(known).join(', ')})`, at);
      } else if (spec.support === 'unsupported') {
        diagnostics.error(entry.fileName, `${where}: ${key} is not supported by Plinth yet${spec.note ? ` (${spec.note})` : ''}`, at);
      } else if (spec.boolean && typeof child !== 'boolean') {
        diagnostics.error(entry.fileName, `${where}: ${key} must be true or false, not ${JSON.stringify(child)}`, at);
      } else if (spec.nested && !fitsShape(spec.nested, child)) {
        // Readers skip a value of the wrong shape; for `member_level` that would mean no restriction at all.
        diagnostics.error(entry.fileName, `${where}: ${key} must be ${spec.nested.shape === 'object' ? 'a mapping' : 'a list'}`, at);
      }
      const normalized = spec ? keyword : key;
      if (seen.has(normalized)) diagnostics.error(entry.fileName, `${where}: \`${key}\` is given twice (snake_case and camelCase)`, at);
      seen.add(normalized);
      out.push([normalized, spec?.nested && !spec.opaque ? descend(spec, child, [...path, key], dotted(label, keyword)) : child]);
    }
    return Object.fromEntries(out);
  };
  const descend = (spec: Keyword, child: unknown, path: Path, label: string): unknown => {
    const nested = spec.nested;
    if (!nested) return child;
    if (nested.shape === 'object') return isObj(child) ? walk(nested.context, child, path, label) : child;
    if (Array.isArray(child)) {
      return child.map((item: unknown, index) => {
        if (!isObj(item)) return item;
        const name = nested.shape === 'named' ? str(item['name']) : undefined;
        return walk(nested.context, item, [...path, index], name ? `${label}.${name}` : `${label}[${index}]`);
      });
    }
    if (nested.shape === 'named' && isObj(child)) {
      return Object.fromEntries(
        Object.entries(child).map(([name, item]) => [
          name,
          isObj(item) ? walk(nested.context, item, [...path, name], `${label}.${name}`) : item,
        ]),
      );
    }
    return child;
  };
  const context: ContextName = entry.kind;
  const value = walk(context, entry.value, [], '');
  checkViewIncludes(entry, value, locate, owner, diagnostics);
  return { ...entry, value, locate };
}

/** `includes` of a view's cube entry mixes names and `{name, alias, ...}` mappings; the mappings are keyword-checked too. */
function checkViewIncludes(
  entry: RawEntry,
  value: Obj,
  locate: (path: Path) => ReturnType<RawEntry['locate']>,
  owner: string,
  diagnostics: Diagnostics,
): void {
  if (entry.kind !== 'view' || !Array.isArray(value['cubes'])) return;
  (value['cubes'] as unknown[]).forEach((cube, cubeIndex) => {
    if (!isObj(cube) || !Array.isArray(cube['includes'])) return;
    (cube['includes'] as unknown[]).forEach((include, includeIndex) => {
      if (!isObj(include)) return;
      const known = KEYWORDS.view_include;
      for (const key of Object.keys(include)) {
        const spec = known[snakeCase(key)];
        const where = `${owner}, cubes[${cubeIndex}].includes[${includeIndex}]`;
        const at = locate(['cubes', cubeIndex, 'includes', includeIndex, key]);
        if (!spec)
          diagnostics.error(entry.fileName, `${where}: unknown keyword \`${key}\` (expected one of ${Object.keys(known).join(', ')})`, at);
        else if (spec.support === 'unsupported')
          diagnostics.error(entry.fileName, `${where}: ${key} is not supported by Plinth yet${spec.note ? ` (${spec.note})` : ''}`, at);
      }
    });
  });
}

function fitsShape(nested: Nested, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (nested.shape === 'object') return isObj(value) || (nested.context === 'case_label' && typeof value === 'string');
  return Array.isArray(value) || (nested.shape === 'named' && isObj(value));
}

function dotted(label: string, key: string): string {
  return label ? `${label}.${key}` : key;
}

function camelCase(key: string): string {
  return key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
