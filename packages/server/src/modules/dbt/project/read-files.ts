import { posix } from 'node:path';
import { applyConfig, emptyConfig, projectConfig, type ModelConfig } from './config.js';
import type { ProjectFiles } from './paths.js';
import { readModelProperties, type ModelProperties } from './properties.js';
import { readSqlConfig } from './sql-config.js';
import { DbtProjectError, type DbtModel } from './types.js';
import { parseYamlFile } from './yaml-input.js';

export interface ProjectSettings {
  name: string;
  modelPaths: string[];
  /** dbt_project.yml's `models:` block. */
  models: unknown;
}

/** Models from the project's files: `.sql` files under the model paths and their `.yml` properties. */
export async function readModelsFromFiles(files: ProjectFiles, settings: ProjectSettings): Promise<DbtModel[]> {
  const sqlFiles: Array<{ path: string; folders: string[] }> = [];
  const propertyFiles: string[] = [];
  for (const modelPath of settings.modelPaths) {
    const base = posix.normalize(modelPath).replace(/\/+$/, '');
    for (const path of await files.list(modelPath)) {
      const inner = base === '.' ? path : path.slice(base.length + 1);
      if (/\.sql$/i.test(path)) sqlFiles.push({ path, folders: inner.split('/').slice(0, -1) });
      else if (/\.ya?ml$/i.test(path)) propertyFiles.push(path);
    }
  }
  const [sqlTexts, propertyTexts] = await Promise.all([
    Promise.all(sqlFiles.map(async (f) => (await files.read(f.path)) ?? '')),
    Promise.all(propertyFiles.map(async (f) => (await files.read(f)) ?? '')),
  ]);

  const properties = new Map<string, ModelProperties>();
  propertyFiles.forEach((path, i) => {
    const shown = files.display(path);
    for (const entry of readModelProperties(shown, parseYamlFile(shown, propertyTexts[i]!))) {
      const earlier = properties.get(entry.name);
      if (earlier) {
        throw new DbtProjectError(`Model "${entry.name}" has properties in both ${earlier.file} and ${entry.file}`, entry.file);
      }
      properties.set(entry.name, entry);
    }
  });

  const seen = new Map<string, string>();
  return sqlFiles.map(({ path, folders }, i) => {
    const name = posix.basename(path).replace(/\.sql$/i, '');
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw new DbtProjectError(
        `Two models are named "${name}": ${files.display(earlier)} and ${files.display(path)}`,
        files.display(path),
      );
    }
    seen.set(name, path);
    const props = properties.get(name);
    const config: ModelConfig = emptyConfig();
    const fromProject = projectConfig(settings.models, [settings.name, ...folders, name]);
    applyConfig(config, { ...fromProject }, false);
    if (props) applyConfig(config, { ...props.config }, false);
    applyConfig(config, readSqlConfig(sqlTexts[i]!), false);
    return {
      name,
      uniqueId: `model.${settings.name}.${name}`,
      database: config.database ?? null,
      schema: config.schema ?? null,
      alias: config.alias ?? name,
      materialized: config.materialized ?? 'view',
      enabled: config.enabled ?? true,
      description: props?.description ?? null,
      tags: config.tags,
      meta: config.meta,
      columns: props?.columns ?? [],
      path,
    };
  });
}
