import { defineOptions, type OptionsOf } from '../../core/define.js';
import { bodyVerb, deleteVerb, getVerb, id, listVerb } from '../../core/rest.js';

const options = defineOptions([
  { flags: '--name <name>', description: 'Attribute name (create only)' },
  { flags: '--type <type>', description: 'Type (create only)', choices: ['string', 'number', 'string_array', 'number_array'] },
  { flags: '--display-name <name>', description: 'Name shown to people' },
  { flags: '--default-value <value>', description: 'Default value' },
  { flags: '--description <text>', description: 'Description' },
]);
const fields = (opts: OptionsOf<typeof options>) => ({
  name: opts.name,
  type: opts.type,
  displayName: opts.displayName,
  defaultValue: opts.defaultValue,
  description: opts.description,
});

export const list = listVerb({
  summary: 'List user attributes (listUserAttributes)',
  path: () => '/api/v1/user-attributes',
  columns: [
    ['ID', 'id'],
    ['Name', 'name'],
    ['Type', 'type'],
    ['Display name', 'displayName'],
    ['Default', 'defaultValue'],
  ],
});
export const get = getVerb({ summary: 'Show one user attribute (getUserAttribute)', path: ([a]) => `/api/v1/user-attributes/${id(a)}` });
export const create = bodyVerb({
  name: 'create',
  summary: 'Create a user attribute (createUserAttribute)',
  method: 'POST',
  path: () => '/api/v1/user-attributes',
  options,
  fields,
  required: [
    ['name', '--name'],
    ['type', '--type'],
  ],
  done: (_a, data) => `Created attribute ${data?.id}`,
  examples: ['plinth attributes create --name region --type string --default-value emea'],
});
export const update = bodyVerb({
  name: 'update',
  summary: 'Change a user attribute (updateUserAttribute)',
  method: 'PATCH',
  args: ['<id>'],
  path: ([a]) => `/api/v1/user-attributes/${id(a)}`,
  options: options.slice(1),
  fields,
});
export const remove = deleteVerb({
  summary: 'Delete a user attribute (deleteUserAttribute)',
  path: ([a]) => `/api/v1/user-attributes/${id(a)}`,
  what: ([a]) => `attribute ${a}`,
});
