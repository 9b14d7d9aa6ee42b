import { positiveInt } from '../../core/body.js';
import { defineOptions, type OptionsOf } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';

/** The reference's resource types; the server says which it serves (others get its 400, naming them). */
export const RESOURCE_TYPES = [
  'Global',
  'Deployment',
  'Folder',
  'Report',
  'Workbook',
  'Dashboard',
  'ReportFolder',
  'Agent',
  'AgentSpace',
  'ChatThread',
] as const;

/**
 * The resource a policy command names: one deployment (--deployment), the whole account
 * (--global), or any resource type by name (--resource-type Folder --resource-id 12), which is
 * how workspace content is named.
 */
export const RESOURCE_OPTIONS = defineOptions([
  { flags: '--deployment <id>', description: 'The deployment the policy is on' },
  { flags: '--global', description: 'The whole account: the policy holds on every deployment' },
  { flags: '--resource-type <type>', description: `The type of resource: ${RESOURCE_TYPES.join(', ')}` },
  { flags: '--resource-id <id>', description: "The resource's id (a folder's, report's, workbook's or dashboard's; 0 for Global)" },
]);

export interface ResourceRef {
  resourceType: string;
  resourceId: number;
}

export function resourceOf(opts: OptionsOf<typeof RESOURCE_OPTIONS>): ResourceRef {
  const given = [
    opts.deployment !== undefined && '--deployment',
    opts.global && '--global',
    opts.resourceType !== undefined && '--resource-type',
  ];
  const named = given.filter(Boolean);
  if (named.length > 1) throw new UsageError(`${named.join(' and ')} do not go together; give one`);
  if (opts.resourceId !== undefined && opts.resourceType === undefined) throw new UsageError('--resource-id goes with --resource-type');
  if (opts.global) return { resourceType: 'Global', resourceId: 0 };
  if (opts.deployment !== undefined) return { resourceType: 'Deployment', resourceId: positiveInt(opts.deployment, '--deployment') };
  if (opts.resourceType === undefined) {
    throw new UsageError('name the resource: --deployment <id>, --global, or --resource-type <type> --resource-id <id>');
  }
  // Case-insensitive, as typed at a prompt; sent as the reference spells it.
  const type = RESOURCE_TYPES.find((t) => t.toLowerCase() === opts.resourceType!.toLowerCase());
  if (!type) throw new UsageError(`--resource-type must be one of ${RESOURCE_TYPES.join(', ')}, got "${opts.resourceType}"`);
  if (type === 'Global') {
    if (opts.resourceId !== undefined && opts.resourceId !== '0')
      throw new UsageError('--resource-type Global takes --resource-id 0 or none');
    return { resourceType: type, resourceId: 0 };
  }
  if (opts.resourceId === undefined) throw new UsageError(`--resource-type ${type} needs --resource-id <id>`);
  return { resourceType: type, resourceId: positiveInt(opts.resourceId, '--resource-id') };
}

/** How a command's message names the resource. */
export function describeResource({ resourceType, resourceId }: ResourceRef): string {
  return resourceType === 'Global' ? 'the account' : `${resourceType.toLowerCase()} ${resourceId}`;
}
