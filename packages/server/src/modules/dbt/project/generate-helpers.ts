import { compile, type Cube, type DataModel } from '@plinth/semantic';
import type { DbtColumn, DbtModel, DbtProject, GeneratedModel } from './types.js';

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
