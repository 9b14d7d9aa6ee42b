import { bodyOf, pairs } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { DATA_OPTION, listVerb } from '../../core/rest.js';
import { userIdOf } from '../../core/users.js';

export const values = {
  ...listVerb({
    summary: "List a user's attribute values (getUserAttributeValues)",
    args: ['<user>'],
    paged: false,
    path: async ([u], _o, client) => `/api/v1/users/${await userIdOf(client, u)}/attribute-values`,
    columns: [
      ['Name', 'name'],
      ['Value', 'value'],
    ],
  }),
  name: 'values',
  aliases: undefined,
};

/** A value typed on the command line: JSON when it parses (numbers, arrays, null), text otherwise. */
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const setValues = defineVerb({
  name: 'set-values',
  summary: "Set a user's attribute values (setUserAttributeValues); null clears one",
  args: ['<user>', '[name=value...]'],
  options: [DATA_OPTION],
  examples: ['plinth attributes set-values ada@example.com region=emea level=3 tags=\'["a","b"]\' old=null'],
  async run(f, [user, assignments], opts) {
    const body = await bodyOf(f.io, opts.data, {});
    const given = pairs(assignments as unknown as string[], 'name=value').map(([name, value]) => ({ name, value: parseValue(value) }));
    if (given.length > 0) body.values = [...((body.values as unknown[]) ?? []), ...given];
    const client = await f.client();
    const response = await client.request('PUT', `/api/v1/users/${await userIdOf(client, user)}/attribute-values`, { body });
    f.output.list(response, [
      ['Name', 'name'],
      ['Value', 'value'],
    ]);
  },
});
