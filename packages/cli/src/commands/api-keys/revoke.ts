import { defineVerb } from '../../core/define.js';
import { id } from '../../core/rest.js';

export const revoke = defineVerb({
  name: 'revoke',
  summary: 'Revoke an API key (revokeApiKey)',
  args: ['<id>'],
  async run(f, [keyId]) {
    await (await f.client()).request('DELETE', `/api/v1/api-keys/${id(keyId)}`);
    f.output.status(`Revoked API key ${keyId}`);
  },
});
