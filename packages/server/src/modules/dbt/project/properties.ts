import { applyConfig, emptyConfig, isObject, tagList, type ModelConfig } from './config.js';
import type { DbtColumn, DbtColumnTest } from './types.js';

/** A `models:` entry of a properties (.yml) file, as far as cubes need it. */
export interface ModelProperties {
  name: string;
  file: string;
  description: string | null;
  config: ModelConfig;
  columns: DbtColumn[];
}

/** The `models:` entries of one parsed properties file; entries without a name are not models. */
export function readModelProperties(file: string, document: unknown): ModelProperties[] {
  if (!isObject(document) || !Array.isArray(document['models'])) return [];
  const out: ModelProperties[] = [];
  for (const entry of document['models']) {
    if (!isObject(entry) || typeof entry['name'] !== 'string') continue;
    const config = emptyConfig();
    // Before dbt 1.10 `meta` and `tags` sat beside `config:`; both forms are read.
    applyConfig(config, { tags: entry['tags'], meta: entry['meta'] }, false);
    if (isObject(entry['config'])) applyConfig(config, entry['config'], false);
    const columns = Array.isArray(entry['columns']) ? entry['columns'].filter(isObject).map(readColumn) : [];
    out.push({
      name: entry['name'],
      file,
      description: text(entry['description']),
      config,
      columns: columns.filter((c): c is DbtColumn => c !== null),
    });
  }
  return out;
}

function readColumn(entry: Record<string, unknown>): DbtColumn | null {
  if (typeof entry['name'] !== 'string') return null;
  const nested = isObject(entry['config']) ? entry['config'] : {};
  const tags = [...tagList(entry['tags']), ...tagList(nested['tags'])];
  const meta = { ...(isObject(entry['meta']) ? entry['meta'] : {}), ...(isObject(nested['meta']) ? nested['meta'] : {}) };
  // dbt 1.8 renamed `tests` to `data_tests`; a file may use either (not both, dbt refuses that).
  const tests = [entry['tests'], entry['data_tests']].flatMap((list) => (Array.isArray(list) ? list : []));
  return {
    name: entry['name'],
    dataType: text(entry['data_type']),
    description: text(entry['description']),
    tags: [...new Set(tags)],
    meta,
    tests: tests.map(readTest).filter((t): t is DbtColumnTest => t !== null),
  };
}

/**
 * A column test in any of dbt's forms: `unique`, `{unique: {config: …}}`,
 * `{relationships: {to: ref('x'), field: id}}`, `{relationships: {arguments: {to, field}}}` (dbt 1.10),
 * `{dbt_utils.accepted_range: {...}}`, `{name: …, test_name: relationships, …}`.
 */
export function readTest(entry: unknown): DbtColumnTest | null {
  let name: string;
  let args: Record<string, unknown> = {};
  if (typeof entry === 'string') name = entry;
  else if (isObject(entry)) {
    if (typeof entry['test_name'] === 'string') {
      name = entry['test_name'];
      args = entry;
    } else {
      const keys = Object.keys(entry);
      if (keys.length !== 1) return null;
      name = keys[0]!;
      const value = entry[name];
      args = isObject(value) ? value : {};
    }
  } else return null;
  if (isObject(args['arguments'])) args = { ...args, ...args['arguments'] };
  return testOf(name, args);
}

/** The test from its name and arguments (also the form of a manifest's test_metadata). */
export function testOf(name: string, args: Record<string, unknown>): DbtColumnTest {
  if (name === 'unique' || name === 'not_null') return { kind: name };
  if (name === 'relationships') {
    const to = typeof args['to'] === 'string' ? refTarget(args['to']) : null;
    const field = args['field'];
    if (to !== null && typeof field === 'string' && field !== '') return { kind: 'relationships', to, field };
  }
  return { kind: 'other', name };
}

/** `ref('customers')`, `ref("pkg", "customers")`, `ref('customers', v=2)` → customers; a source → null. */
export function refTarget(expression: string): string | null {
  const match = /^\s*ref\s*\(\s*(['"])([^'"]+)\1\s*(?:,\s*(['"])([^'"]+)\3\s*)?(?:,\s*(?:v|version)\s*=\s*[^)]*)?\)\s*$/.exec(expression);
  if (!match) return null;
  return match[4] ?? match[2]!;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}
