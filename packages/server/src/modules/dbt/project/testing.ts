import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { compile, type Cube, type DataModel } from '@plinth/semantic';
import type { DbtColumn, DbtModel, DbtProject, GeneratedModel } from './types.js';

/* Test support: temporary project directories, and builders of models for generator tests. */

/** Temporary project directories for tests, removed by `removeTestProjects` (afterAll). */
const created: string[] = [];

/** Writes files (path → text, or an object written as YAML/JSON by extension) into a fresh directory. */
export async function writeTestProject(files: Record<string, string | object>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'plinth-dbt-test-'));
  created.push(dir);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    const text = typeof content === 'string' ? content : path.endsWith('.json') ? JSON.stringify(content) : stringify(content);
    await writeFile(join(dir, path), text);
  }
  return dir;
}

export async function removeTestProjects(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

export const PROJECT_YML = 'name: shop\nversion: "1.0.0"\nconfig-version: 2\n';

/** Builders for generator tests: a model or column with only what the test is about. */
export function column(name: string, extra: Partial<DbtColumn> = {}): DbtColumn {
  return { name, dataType: null, description: null, tags: [], meta: {}, tests: [], ...extra };
}

export function model(name: string, columns: DbtColumn[], extra: Partial<DbtModel> = {}): DbtModel {
  return {
    name,
    uniqueId: `model.shop.${name}`,
    database: null,
    schema: 'main',
    alias: name,
    materialized: 'table',
    enabled: true,
    description: null,
    tags: [],
    meta: {},
    columns,
    path: `models/${name}.sql`,
    ...extra,
  };
}

export function projectOf(...models: DbtModel[]): DbtProject {
  return { name: 'shop', source: 'files', models };
}

/** Compiles generated files with the real compiler; the model, and the errors if any. */
export function compiled(generated: GeneratedModel): { model: DataModel; errors: string[] } {
  const result = compile(generated.files);
  return { model: result.model, errors: result.errors.map((e) => `${e.fileName}: ${e.message}`) };
}

export function cubeIn(generated: GeneratedModel, name: string): Cube {
  const { model: data, errors } = compiled(generated);
  if (errors.length > 0) throw new Error(errors.join('\n'));
  const cube = data.cubes.get(name);
  if (!cube) throw new Error(`no cube ${name}`);
  return cube;
}
