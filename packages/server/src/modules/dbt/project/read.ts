import { isObject } from './config.js';
import { readModelsFromManifest } from './manifest.js';
import { ProjectFiles } from './paths.js';
import { readModelsFromFiles, type ProjectSettings } from './read-files.js';
import { DbtProjectError, type DbtProject } from './types.js';
import { parseJsonFile, parseYamlFile } from './yaml-input.js';

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
    const { models } = readModelsFromManifest(shown, parseJsonFile(shown, manifestText));
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
  return { name: project['name'], modelPaths, models: project['models'], targetPath };
}
