import { defineOptions, type OptionsOf } from '../../core/define.js';
import { bodyVerb, deleteVerb, getVerb, id, listVerb } from '../../core/rest.js';

const options = defineOptions([
  { flags: '--name <name>', description: 'Group name' },
  { flags: '--description <text>', description: 'Description' },
]);
const fields = (opts: OptionsOf<typeof options>) => ({ name: opts.name, description: opts.description });

export const list = listVerb({
  summary: 'List groups (listGroups)',
  path: () => '/api/v1/user-groups',
  columns: [
    ['ID', 'id'],
    ['Name', 'name'],
    ['Users', 'userCount'],
    ['Description', 'description'],
  ],
});
export const get = getVerb({ summary: 'Show one group (getUserGroup)', path: ([g]) => `/api/v1/user-groups/${id(g)}` });
export const create = bodyVerb({
  name: 'create',
  summary: 'Create a group (createUserGroup)',
  method: 'POST',
  path: () => '/api/v1/user-groups',
  options,
  fields,
  required: [['name', '--name']],
  done: (_a, data) => `Created group ${data?.id}`,
});
export const update = bodyVerb({
  name: 'update',
  summary: 'Rename or describe a group (updateUserGroup)',
  method: 'PATCH',
  args: ['<id>'],
  path: ([g]) => `/api/v1/user-groups/${id(g)}`,
  options,
  fields,
});
export const remove = deleteVerb({
  summary: 'Delete a group (deleteGroup)',
  path: ([g]) => `/api/v1/groups/${id(g)}`,
  what: ([g]) => `group ${g}`,
});
