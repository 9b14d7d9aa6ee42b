import { defineVerb } from '../../core/define.js';
import { id, listVerb } from '../../core/rest.js';
import { userIdOf, userIdsOf } from '../../core/users.js';
import { userColumns } from '../users/columns.js';

export const members = {
  ...listVerb({
    summary: 'List the members of a group (listGroupMembers)',
    args: ['<id>'],
    path: ([g]) => `/api/v1/user-groups/${id(g)}/members`,
    columns: userColumns,
  }),
  name: 'members',
  aliases: undefined,
};

export const addMembers = defineVerb({
  name: 'add-members',
  summary: 'Add users to a group (addGroupMembers)',
  args: ['<id>', '<users...>'],
  examples: ['plinth groups add-members 1 ada@example.com bob@example.com'],
  async run(f, [groupId, users]) {
    const client = await f.client();
    const ids = await userIdsOf(client, users as unknown as string[]);
    await client.request('POST', `/api/v1/user-groups/${id(groupId)}/members`, { body: { userIds: ids } });
    f.output.status(`Added ${ids.length} user(s) to group ${groupId}`);
  },
});

export const removeMember = defineVerb({
  name: 'remove-member',
  summary: 'Remove a user from a group (removeGroupMember)',
  args: ['<id>', '<user>'],
  async run(f, [groupId, user]) {
    const client = await f.client();
    await client.request('DELETE', `/api/v1/user-groups/${id(groupId)}/members/${await userIdOf(client, user)}`);
    f.output.status(`Removed user ${user} from group ${groupId}`);
  },
});
