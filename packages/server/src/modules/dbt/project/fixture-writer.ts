import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { withDocs } from './docs.js';

/**
 * Test and benchmark projects, described once and written both as dbt writes them: source files
 * (dbt_project.yml, SQL, properties YAML) and, when asked, the `target/manifest.json` dbt would compile
 * from them. The manifest is built from the description, not from our reader, so the two sources
 * check each other.
 */
export interface FixtureColumn {
  name: string;
  dataType?: string;
  description?: string;
  tags?: string[];
  meta?: Record<string, unknown>;
  /** Tests as written in the properties file (`unique`, `{relationships: {to: "ref('x')", field: id}}`, …). */
  tests?: unknown[];
}

export interface FixtureModel {
  name: string;
  /** Folder under models/ ('' for models/ itself). */
  folder: string;
  sql: string;
  description?: string;
  columns: FixtureColumn[];
  /** What dbt resolves from all config levels, for the manifest. */
  materialized: string;
  schema: string;
  enabled?: boolean;
  tags?: string[];
}

export interface FixtureProject {
  name: string;
  projectYaml: Record<string, unknown>;
  models: FixtureModel[];
  /** Doc blocks (name → text), written to models/docs.md; descriptions may refer to them with doc(). */
  docs?: Record<string, string>;
  /** Extra files (macros, README), path → text. */
  extra?: Record<string, string>;
}

export interface FixtureOptions {
  manifest?: boolean;
  /** The manifest's database for every model; null (the default) when the adapter has none to name. */
  database?: string | null;
}

/** The project's files, path → text, as a Git repository or a directory would hold them. */
export function fixtureFiles(project: FixtureProject, options: FixtureOptions = {}): Record<string, string> {
  const files: Record<string, string> = { 'dbt_project.yml': stringify(project.projectYaml) };
  const byFolder = new Map<string, FixtureModel[]>();
  for (const model of project.models) {
    const folder = model.folder === '' ? 'models' : `models/${model.folder}`;
    files[`${folder}/${model.name}.sql`] = model.sql;
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), model]);
  }
  for (const [folder, models] of byFolder) {
    files[`${folder}/_models.yml`] = stringify({ version: 2, models: models.map(propertiesOf) }, { lineWidth: 0 });
  }
  const docs = Object.entries(project.docs ?? {});
  if (docs.length > 0) files['models/docs.md'] = docs.map(([name, text]) => `{% docs ${name} %}\n${text}\n{% enddocs %}\n`).join('\n');
  Object.assign(files, project.extra ?? {});
  if (options.manifest) files['target/manifest.json'] = JSON.stringify(manifestOf(project, options.database ?? null));
  return files;
}

export async function writeFixtureProject(dir: string, project: FixtureProject, options: FixtureOptions = {}): Promise<void> {
  const files = Object.entries(fixtureFiles(project, options));
  await Promise.all([...new Set(files.map(([p]) => dirname(join(dir, p))))].map((d) => mkdir(d, { recursive: true })));
  await Promise.all(files.map(([path, text]) => writeFile(join(dir, path), text)));
}

function propertiesOf(model: FixtureModel): Record<string, unknown> {
  return {
    name: model.name,
    ...(model.description ? { description: model.description } : {}),
    columns: model.columns.map((c) => ({
      name: c.name,
      ...(c.dataType ? { data_type: c.dataType } : {}),
      ...(c.description ? { description: c.description } : {}),
      ...(c.tags ? { tags: c.tags } : {}),
      ...(c.meta ? { meta: c.meta } : {}),
      ...(c.tests ? { data_tests: c.tests } : {}),
    })),
  };
}

function manifestOf(project: FixtureProject, database: string | null): Record<string, unknown> {
  const nodes: Record<string, unknown> = {};
  const disabled: Record<string, unknown[]> = {};
  const id = (model: string): string => `model.${project.name}.${model}`;
  // dbt writes descriptions to the manifest with their doc() references rendered.
  const docs = new Map(Object.entries(project.docs ?? {}).map(([name, text]) => [name, text.trim()]));
  for (const model of project.models) {
    const path = `models/${model.folder === '' ? '' : `${model.folder}/`}${model.name}.sql`;
    const node = {
      resource_type: 'model',
      name: model.name,
      unique_id: id(model.name),
      package_name: project.name,
      database,
      schema: model.schema,
      alias: model.name,
      description: withDocs(model.description ?? '', docs) ?? '',
      tags: model.tags ?? [],
      meta: {},
      config: { enabled: model.enabled ?? true, materialized: model.materialized, tags: model.tags ?? [], meta: {} },
      original_file_path: path,
      path: path.slice('models/'.length),
      columns: Object.fromEntries(
        model.columns.map((c) => [
          c.name,
          {
            name: c.name,
            data_type: c.dataType ?? null,
            description: withDocs(c.description ?? '', docs) ?? '',
            meta: c.meta ?? {},
            tags: c.tags ?? [],
            constraints: [],
          },
        ]),
      ),
    };
    if (model.enabled === false) disabled[id(model.name)] = [node];
    else nodes[id(model.name)] = node;
    for (const column of model.columns) {
      for (const [i, test] of (column.tests ?? []).entries()) {
        const [name, args] = typeof test === 'string' ? [test, {}] : Object.entries(test as Record<string, Record<string, unknown>>)[0]!;
        const kwargs: Record<string, unknown> = { column_name: column.name, model: `{{ get_where_subquery(ref('${model.name}')) }}` };
        const argumentsOf = (args['arguments'] ?? args) as Record<string, unknown>;
        for (const [k, v] of Object.entries(argumentsOf)) if (k !== 'config') kwargs[k] = v;
        const refs = typeof kwargs['to'] === 'string' ? [/ref\('([^']+)'\)/.exec(kwargs['to'])?.[1]].filter(Boolean) : [];
        const testId = `test.${project.name}.${name}_${model.name}_${column.name}.${i}`;
        nodes[testId] = {
          resource_type: 'test',
          name: `${name}_${model.name}_${column.name}`,
          unique_id: testId,
          package_name: project.name,
          column_name: column.name,
          attached_node: id(model.name),
          test_metadata: { name, kwargs, namespace: null },
          depends_on: { macros: [`macro.dbt.test_${name}`], nodes: [...refs.map((r) => id(r!)), id(model.name)] },
          config: { enabled: true, severity: 'ERROR' },
        };
      }
    }
  }
  return {
    metadata: {
      dbt_schema_version: 'https://schemas.getdbt.com/dbt/manifest/v12.json',
      dbt_version: '1.9.4',
      project_name: project.name,
      adapter_type: 'duckdb',
    },
    nodes,
    sources: {},
    macros: {},
    disabled,
  };
}
