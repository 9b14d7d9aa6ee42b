import type { Ok } from '@plinth/api-client';
import { bodyOf } from '../../core/body.js';
import { defineVerb, type Group } from '../../core/define.js';
import { DATA_OPTION, deleteVerb, id, listVerb, requireFields } from '../../core/rest.js';

/** SCIM tokens are managed with the platform credential (an admin's key or login), not with a SCIM token. */
export const tokens: Group = {
  name: 'tokens',
  summary: 'SCIM tokens for identity providers',
  verbs: [
    listVerb({
      summary: 'List SCIM tokens (listScimTokens)',
      path: () => '/api/v1/scim-tokens',
      columns: [
        ['ID', 'id'],
        ['Name', 'name'],
        ['Prefix', 'prefix'],
        ['Last used', 'lastUsedAt'],
        ['Revoked', 'revokedAt'],
      ],
    }),
    defineVerb({
      name: 'create',
      summary: 'Create a SCIM token; printed once (createScimToken)',
      options: [{ flags: '--name <name>', description: 'Name of the token' }, DATA_OPTION],
      // The token alone on stdout, like `users invite` prints its link: `export PLINTH_SCIM_TOKEN=$(…)` works.
      async run(f, _args, opts) {
        const body = await bodyOf(f.io, opts.data, { name: opts.name });
        requireFields(body, [['name', '--name']]);
        const response = await (await f.client()).request<Ok<'/api/v1/scim-tokens', 'post'>>('POST', '/api/v1/scim-tokens', { body });
        if (f.output.json) return f.output.raw(response);
        f.output.data(response.data.token);
        f.output.status(`SCIM token ${response.data.id} "${response.data.name}". Store it now: it is not shown again.`);
      },
    }),
    deleteVerb({
      name: 'revoke',
      summary: 'Revoke a SCIM token (revokeScimToken)',
      path: ([t]) => `/api/v1/scim-tokens/${id(t)}`,
      what: ([t]) => `SCIM token ${t}`,
    }),
  ],
};
