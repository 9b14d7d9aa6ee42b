import { stringify } from 'yaml';
import { cubeOf } from './cube.js';
import { memberName } from './naming.js';
import { escapeJinja } from './naming.js';
import { DbtProjectError, GENERATED_DIRECTORY, type DbtProject, type GeneratedModel } from './types.js';

/**
 * One cube per enabled, non-ephemeral model, each in its own file under model/dbt/. The output
 * depends only on the project (members, joins and keys sorted), so an unchanged project syncs to
 * byte-identical files.
 */
export function generateCubes(project: DbtProject): GeneratedModel {
  const skipped: GeneratedModel['skipped'] = [];
  const warnings: string[] = [];
  const files = new Map<string, string>();
  const cubeModels = new Map<string, string>();
  const models = [...project.models].sort((a, b) => compare(a.name, b.name));
  for (const model of models) {
    if (!model.enabled) skipped.push({ model: model.name, reason: 'disabled' });
    else if (model.materialized === 'ephemeral') skipped.push({ model: model.name, reason: 'ephemeral' });
  }
  const generated = models.filter((m) => m.enabled && m.materialized !== 'ephemeral');
  for (const model of generated) {
    const name = memberName(model.name);
    const earlier = cubeModels.get(name);
    if (earlier !== undefined) {
      throw new DbtProjectError(
        `Models "${earlier}" and "${model.name}" would both be cube "${name}"; rename one of them`,
        model.path || null,
      );
    }
    cubeModels.set(name, model.name);
    const cube = cubeOf(model, name, warnings);
    const text = stringify({ cubes: [cube] }, { lineWidth: 0, minContentWidth: 0 });
    files.set(`${GENERATED_DIRECTORY}/${name}.yml`, escapeJinja(text));
  }
  return {
    files: new Map([...files].sort(([a], [b]) => compare(a, b))),
    cubes: [...cubeModels.keys()].sort(compare),
    skipped,
    warnings,
  };
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
