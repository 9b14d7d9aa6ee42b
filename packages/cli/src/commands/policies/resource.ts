import { positiveInt } from '../../core/body.js';
import { defineOptions, type OptionsOf } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';

/** The resource a policy command names: one deployment, or the whole account (Global). */
export const RESOURCE_OPTIONS = defineOptions([
  { flags: '--deployment <id>', description: 'The deployment the policy is on' },
  { flags: '--global', description: 'The whole account: the policy holds on every deployment' },
]);

export function resourceOf(opts: OptionsOf<typeof RESOURCE_OPTIONS>): { resourceType: 'Global' | 'Deployment'; resourceId: number } {
  if (opts.global && opts.deployment !== undefined) throw new UsageError('--deployment and --global do not go together; give one');
  if (opts.global) return { resourceType: 'Global', resourceId: 0 };
  if (opts.deployment === undefined) throw new UsageError('name the resource: --deployment <id> or --global');
  return { resourceType: 'Deployment', resourceId: positiveInt(opts.deployment, '--deployment') };
}
