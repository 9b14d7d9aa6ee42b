import type { Ok } from '@plinth/api-client';
import { positiveInt } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { describeResource, RESOURCE_OPTIONS, resourceOf } from './resource.js';

export const setGroup = defineVerb({
  name: 'set-group',
  summary: "Set or remove a group's action on a deployment, the account or workspace content (updateGroupPolicy)",
  description:
    'A group holds one action per resource: this replaces it, --remove takes it away. An action implies those below it (All every action, SchemaUpdate SchemaRead, FolderRead ReportRead and WorkbookRead, …). A policy on a folder reaches everything in it. You may grant only what you hold; on content you created (or Manage) you need no admin role.',
  args: ['<group_id>'],
  options: [
    ...RESOURCE_OPTIONS,
    {
      flags: '--action <action>',
      description: 'The action to hold, e.g. SchemaUpdate, DeploymentRead, All; on content ReportRead, WorkbookEdit, FolderManage, …',
    },
    { flags: '--remove', description: 'Remove the policy' },
  ],
  examples: [
    'plinth policies set-group 7 --deployment 3 --action SchemaUpdate',
    'plinth policies set-group 7 --global --remove',
    'plinth policies set-group 7 --resource-type Folder --resource-id 12 --action ReportRead',
  ],
  async run(f, [subject], opts) {
    if ((opts.action === undefined) === !opts.remove) throw new UsageError('give --action <action> or --remove');
    if (opts.action === '') throw new UsageError('--action is empty; name an action such as SchemaRead');
    const body = { ...resourceOf(opts), groupId: positiveInt(subject ?? '', 'group_id'), action: opts.remove ? null : opts.action };
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/resource-policies/group', 'put'>>('PUT', '/api/v1/resource-policies/group', { body });
    if (f.output.json) return f.output.raw(response);
    const where = describeResource(body);
    f.output.status(
      opts.remove ? `Removed the policy of group ${subject} on ${where}` : `Group ${subject} holds ${opts.action} on ${where}`,
    );
  },
});
