import { posix } from 'node:path';
import { columnsWithDocs, readDocBlocks, withDocs } from './docs.js';
import { applyConfig, emptyConfig, isObject, projectConfig, type ModelConfig } from './config.js';
import { readModelsFromManifest } from './manifest.js';
import { parseJsonFile, parseYamlFile, ProjectFiles } from './paths.js';
import { readModelProperties, type ModelProperties } from './properties.js';
import { readSqlConfig } from './sql-config.js';
import { DbtProjectError, type DbtModel, type DbtProject } from './types.js';

/**
 * Reads the dbt project in `folder` of a checkout at `root`: from `target/manifest.json` when the
 * project has one (what dbt compiled), else from dbt_project.yml, the models' SQL and their
 * properties files. Jinja is never run.
 */
export async function readDbtProject(root: string, folder: string): Promise<DbtProject> {
  const files = await ProjectFiles.open(root, folder);
  const settings = await readSettings(files);
  const manifestPath = `${settings.targetPath}/manifest.json`;
  const manifestText = await files.read(manifestPath);
  if (manifestText !== null) {
    const shown = files.display(manifestPath);
    const models = readModelsFromManifest(shown, parseJsonFile(shown, manifestText), settings.name);
    return { name: settings.name, source: 'manifest', models };
  }
  return { name: settings.name, source: 'files', models: await readModelsFromFiles(files, settings) };
}

async function readSettings(files: ProjectFiles): Promise<ProjectSettings & { targetPath: string }> {
  const shown = files.display('dbt_project.yml');
  const text = await files.read('dbt_project.yml');
  if (text === null) {
    const where = files.folder === '' ? 'the repository root' : `the folder "${files.folder}"`;
    throw new DbtProjectError(`No dbt_project.yml in ${where}: ${shown} is not a dbt project`, shown);
  }
  const project = parseYamlFile(shown, text);
  if (!isObject(project) || typeof project['name'] !== 'string' || project['name'].trim() === '') {
    throw new DbtProjectError(`${shown} has no project name (\`name:\`)`, shown);
  }
  // `source-paths` is the name before dbt 1.0.
  const rawPaths = project['model-paths'] ?? project['source-paths'] ?? ['models'];
  const modelPaths = Array.isArray(rawPaths) ? rawPaths.filter((p): p is string => typeof p === 'string' && p !== '') : [];
  if (!Array.isArray(rawPaths) || modelPaths.length !== rawPaths.length) {
    throw new DbtProjectError(`${shown}: model-paths must be a list of folder names`, shown);
  }
  const targetPath = typeof project['target-path'] === 'string' && project['target-path'] !== '' ? project['target-path'] : 'target';
  const docsPaths = Array.isArray(project['docs-paths'])
    ? project['docs-paths'].filter((p): p is string => typeof p === 'string' && p !== '')
    : [];
  return { name: project['name'], modelPaths, docsPaths, models: project['models'], targetPath };
}

interface ProjectSettings {
  name: string;
  modelPaths: string[];
  /** Where doc blocks are besides the model paths. */
  docsPaths: string[];
  /** dbt_project.yml's `models:` block. */
  models: unknown;
}

/** Models from the project's files: `.sql` files under the model paths and their `.yml` properties. */
async function readModelsFromFiles(files: ProjectFiles, settings: ProjectSettings): Promise<DbtModel[]> {
  const sqlFiles: Array<{ path: string; folders: string[] }> = [];
  const propertyFiles: string[] = [];
  const docFiles = new Set<string>();
  for (const modelPath of settings.modelPaths) {
    const base = posix.normalize(modelPath).replace(/\/+$/, '');
    for (const path of await files.list(modelPath)) {
      const inner = base === '.' ? path : path.slice(base.length + 1);
      if (/\.sql$/i.test(path)) sqlFiles.push({ path, folders: inner.split('/').slice(0, -1) });
      else if (/\.ya?ml$/i.test(path)) propertyFiles.push(path);
      else if (/\.md$/i.test(path)) docFiles.add(path);
    }
  }
  for (const docsPath of settings.docsPaths) {
    for (const path of await files.list(docsPath)) if (/\.md$/i.test(path)) docFiles.add(path);
  }
  const [sqlTexts, propertyTexts, docTexts] = await Promise.all([
    Promise.all(sqlFiles.map(async (f) => (await files.read(f.path)) ?? '')),
    Promise.all(propertyFiles.map(async (f) => (await files.read(f)) ?? '')),
    Promise.all([...docFiles].map(async (f) => (await files.read(f)) ?? '')),
  ]);
  const docs = new Map<string, string>();
  for (const text of docTexts) readDocBlocks(text, docs);

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
      description: withDocs(props?.description ?? null, docs),
      tags: config.tags,
      meta: config.meta,
      columns: columnsWithDocs(props?.columns ?? [], docs),
      path,
    };
  });
}
