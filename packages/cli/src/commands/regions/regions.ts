import { defineVerb } from '../../core/define.js';

export const verb = defineVerb({
  name: 'regions',
  summary: 'List the regions a deployment may be created in (getRegions)',
  async run(f) {
    const client = await f.client();
    f.output.list(await client.request('GET', '/api/v1/regions'), [['Name', 'name']]);
  },
});
