import { defineVerb } from '../../core/define.js';
import { RESOURCE_OPTIONS, resourceOf } from './resource.js';

interface Policies {
  userPolicies: Array<{ userId: number; action: string }>;
  groupPolicies: Array<{ groupId: number; action: string }>;
  inheritedUserPolicies: Array<{ userId: number; action: string }>;
  inheritedGroupPolicies: Array<{ groupId: number; action: string }>;
}

export const list = defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the resource policies on a deployment or on the account (getPolicies)',
  description: "A deployment's list includes the policies it inherits from the account (Global).",
  options: RESOURCE_OPTIONS,
  examples: ['plinth policies list --deployment 3', 'plinth policies list --global'],
  async run(f, _args, opts) {
    const client = await f.client();
    const response = await client.request<Policies>('GET', '/api/v1/resource-policies', { query: resourceOf(opts) });
    if (f.output.json) return f.output.raw(response);
    const p = response.data;
    const rows = [
      ...p.userPolicies.map((r) => ({ subject: `user ${r.userId}`, action: r.action, from: 'this resource' })),
      ...p.groupPolicies.map((r) => ({ subject: `group ${r.groupId}`, action: r.action, from: 'this resource' })),
      ...p.inheritedUserPolicies.map((r) => ({ subject: `user ${r.userId}`, action: r.action, from: 'Global' })),
      ...p.inheritedGroupPolicies.map((r) => ({ subject: `group ${r.groupId}`, action: r.action, from: 'Global' })),
    ];
    f.output.list({ ...response, data: rows }, [
      ['Subject', 'subject'],
      ['Action', 'action'],
      ['From', 'from'],
    ]);
  },
});
