import { conflict } from '../../http/errors.js';

/** The reference's CreationStep values (api.yaml), plus `created`, the step of a deployment no wizard has touched yet. */
export const CREATION_STEPS = ['created', 'project', 'upload', 'schema', 'github', 'ssh', 'databases', 'ready', 'demo'] as const;

/**
 * The wizard's path: name the project, bring the data model in the way it was created
 * (`github`, `ssh`, or an upload), connect the databases, generate the schema, ready. A demo
 * deployment comes with all of that and only has `ready` ahead.
 */
function pathOf(creationMethod: string | null): string[] {
  const source = creationMethod === 'github' ? 'github' : creationMethod === 'ssh' ? 'ssh' : 'upload';
  return ['project', source, 'databases', 'schema', 'ready'];
}

/** The step after `current`; a ready deployment has none. */
export function nextStep(current: string, creationMethod: string | null): string {
  if (current === 'ready') throw conflict('The deployment is already at its last creation step, ready');
  if (current === 'demo') return 'ready';
  const path = pathOf(creationMethod);
  const at = path.indexOf(current);
  // `created`, or a source step another creation method left behind, goes on from the start of the path.
  if (at === -1) return current === 'created' ? path[0]! : path[path.indexOf('databases')]!;
  return path[at + 1]!;
}

/** reset-step starts the wizard again at its first step. */
export const FIRST_STEP = 'project';
