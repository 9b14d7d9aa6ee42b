import { defineVerb } from '../../core/define.js';
import type { Column } from '../../core/output.js';
import { id } from '../../core/rest.js';

const columns: Column[] = [
  ['Version', 'version'],
  ['Channel', 'channel'],
  ['Latest', 'latest'],
  ['Current', 'current'],
  ['Pass as', 'passAs'],
];

export const versions = defineVerb({
  name: 'versions',
  summary: 'List the engine versions a deployment may switch to, per release channel (getDeploymentVersions)',
  description: 'Pass a PASS AS value (or the bare version) to `deployments update --release-channel-version`.',
  args: ['<deployment_id>'],
  async run(f, [deploymentId]) {
    const client = await f.client();
    f.output.list(await client.request('GET', `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/versions`), columns);
  },
});
