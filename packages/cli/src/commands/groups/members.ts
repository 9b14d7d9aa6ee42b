import { positiveInt } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { id, listVerb } from '../../core/rest.js';
import { userColumns } from '../users/columns.js';

export const members = { ...listVerb({ summary: 'List the members of a group (listGroupMembers)', args: ['<id>'], path: ([g]) => `/api/v1/user-groups/${id(g)}/members`, columns: userColumns }), name: 'members', aliases: undefined };

export const addMembers = defineVerb({
  name: 'add-members',
  summary: 'Add users to a group (addGroupMembers)',
  args: ['<id>', '<user_ids...>'],
  async run(f, [groupId, userIds]) {
    const ids = (userIds as unknown as string[]).map((u) => positiveInt(u, 'user id'));
    await (await f.client()).request('POST', `/api/v1/user-groups/${id(groupId)}/members`, { body: { userIds: ids } });
    f.output.status(`Added ${ids.length} user(s) to group ${groupId}`);
  },
});

export const removeMember = defineVerb({
  name: 'remove-member',
  summary: 'Remove a user from a group (removeGroupMember)',
  args: ['<id>', '<user_id>'],
  async run(f, [groupId, userId]) {
    await (await f.client()).request('DELETE', `/api/v1/user-groups/${id(groupId)}/members/${id(userId, 'user_id')}`);
    f.output.status(`Removed user ${userId} from group ${groupId}`);
  },
});
