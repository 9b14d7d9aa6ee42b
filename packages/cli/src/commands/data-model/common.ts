import { defineOptions } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { id } from '../../core/rest.js';

/** The authoring API of one deployment's data model. */
export const modelPath = (deploymentId: string | undefined, rest: string) =>
  `/build/api/v1/deployments/${id(deploymentId, 'deployment_id')}${rest}`;

export const BRANCH_OPTION = defineOptions([
  {
    flags: '--branch <name>',
    description: "Branch to act on (default: your dev-mode branch, else the deploy branch main; '' is sent as empty and means the same)",
  },
]);

/**
 * Section 4.8 rule 4: a branch argument that names what to act on (dev-mode, delete-branch) may
 * not be empty, whereas an empty --branch is sent as is and means the current dev-mode session.
 */
export function nonEmpty(value: string | undefined, what: string): string {
  if (!value)
    throw new UsageError(`${what} must not be empty`, `Name the branch, e.g. \`plinth data-model branches <deployment_id>\` lists them.`);
  return value;
}

/** A body field for --branch: left out when the flag is absent, sent (even empty) when given. */
export const branchField = (branch: string | undefined) => (branch === undefined ? {} : { branch });
