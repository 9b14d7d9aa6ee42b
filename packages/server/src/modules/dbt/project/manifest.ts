import { isObject, tagList } from './config.js';
import { testOf } from './properties.js';
import { DbtProjectError, type DbtColumn, type DbtColumnTest, type DbtModel } from './types.js';

/**
 * Models from dbt's `target/manifest.json` (any schema version since v4: the fields read here have
 * not moved): model nodes, disabled models (`disabled`), and the tests attached to their columns.
 * The manifest is what dbt compiled, so relations (database, schema, alias) are the real ones.
 */
export function readModelsFromManifest(file: string, manifest: unknown, projectName: string): DbtModel[] {
  if (!isObject(manifest) || !isObject(manifest['nodes'])) {
    throw new DbtProjectError(`${file} is not a dbt manifest: it has no "nodes"`, file);
  }
  const nodes = Object.values(manifest['nodes']).filter(isObject);
  const disabled = isObject(manifest['disabled'])
    ? Object.values(manifest['disabled']).flatMap((list) => (Array.isArray(list) ? list.filter(isObject) : []))
    : [];

  const testsByModel = new Map<string, Map<string, DbtColumnTest[]>>();
  for (const node of nodes) {
    if (node['resource_type'] !== 'test' || !isObject(node['test_metadata'])) continue;
    if (isObject(node['config']) && node['config']['enabled'] === false) continue;
    const attached = attachedModel(node);
    const column = typeof node['column_name'] === 'string' ? node['column_name'] : null;
    if (attached === null || column === null) continue;
    const meta = node['test_metadata'];
    const kwargs = isObject(meta['kwargs']) ? meta['kwargs'] : {};
    const name = typeof meta['name'] === 'string' ? meta['name'] : 'unknown';
    const namespace = typeof meta['namespace'] === 'string' ? meta['namespace'] : null;
    const test = namespace ? { kind: 'other' as const, name: `${namespace}.${name}` } : testOf(name, kwargs);
    const columns = testsByModel.get(attached) ?? new Map<string, DbtColumnTest[]>();
    testsByModel.set(attached, columns);
    const key = column.toLowerCase();
    columns.set(key, [...(columns.get(key) ?? []), test]);
  }

  const models = [
    ...nodes.filter((n) => n['resource_type'] === 'model').map((n) => modelOf(file, n, true, testsByModel)),
    ...disabled.filter((n) => n['resource_type'] === 'model').map((n) => modelOf(file, n, false, testsByModel)),
  ];
  // Packages' models are in the manifest too; only the project's own become cubes.
  const own = models.filter((m) => m.uniqueId.startsWith(`model.${projectName}.`));
  return own.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The model a test belongs to: `attached_node` (dbt ≥ 1.5), else its one model dependency. */
function attachedModel(node: Record<string, unknown>): string | null {
  if (typeof node['attached_node'] === 'string') return node['attached_node'];
  const dependsOn = isObject(node['depends_on']) && Array.isArray(node['depends_on']['nodes']) ? node['depends_on']['nodes'] : [];
  const models = dependsOn.filter((d): d is string => typeof d === 'string' && d.startsWith('model.'));
  // A relationships test depends on both models; the one tested is named in kwargs.model.
  if (models.length === 1) return models[0]!;
  const kwargs = isObject(node['test_metadata']) && isObject(node['test_metadata']['kwargs']) ? node['test_metadata']['kwargs'] : {};
  const tested = typeof kwargs['model'] === 'string' ? /ref\(\s*['"]([^'"]+)['"]/.exec(kwargs['model'])?.[1] : undefined;
  return models.find((m) => tested !== undefined && m.endsWith(`.${tested}`)) ?? null;
}

function modelOf(
  file: string,
  node: Record<string, unknown>,
  listed: boolean,
  testsByModel: Map<string, Map<string, DbtColumnTest[]>>,
): DbtModel {
  const name = node['name'];
  const uniqueId = node['unique_id'];
  if (typeof name !== 'string' || typeof uniqueId !== 'string') {
    throw new DbtProjectError(`${file}: a model node has no name or unique_id`, file);
  }
  const config = isObject(node['config']) ? node['config'] : {};
  const meta = { ...(isObject(node['meta']) ? node['meta'] : {}), ...(isObject(config['meta']) ? config['meta'] : {}) };
  const tests = testsByModel.get(uniqueId) ?? new Map<string, DbtColumnTest[]>();
  const columns: DbtColumn[] = Object.values(isObject(node['columns']) ? node['columns'] : {})
    .filter(isObject)
    .filter((c) => typeof c['name'] === 'string')
    .map((c) => {
      const columnName = c['name'] as string;
      const columnConfig = isObject(c['config']) ? c['config'] : {};
      return {
        name: columnName,
        dataType: text(c['data_type']),
        description: text(c['description']),
        tags: [...new Set([...tagList(c['tags']), ...tagList(columnConfig['tags'])])],
        meta: { ...(isObject(c['meta']) ? c['meta'] : {}), ...(isObject(columnConfig['meta']) ? columnConfig['meta'] : {}) },
        tests: tests.get(columnName.toLowerCase()) ?? [],
      };
    });
  return {
    name,
    uniqueId,
    database: text(node['database']),
    schema: text(node['schema']),
    alias: text(node['alias']) ?? name,
    materialized: text(config['materialized']) ?? 'view',
    enabled: listed && config['enabled'] !== false,
    description: text(node['description']),
    tags: [...new Set([...tagList(node['tags']), ...tagList(config['tags'])])],
    meta,
    columns,
    path: text(node['original_file_path']) ?? text(node['path']) ?? '',
  };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}
