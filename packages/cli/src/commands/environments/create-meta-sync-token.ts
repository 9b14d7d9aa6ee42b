import { defineVerb } from '../../core/define.js';
import { environmentPath, mintEnvironmentToken, TOKEN_OPTIONS } from './shared.js';

export const createMetaSyncToken = defineVerb({
  name: 'create-meta-sync-token',
  summary: 'Mint a token for syncing an environment’s metadata (createDeploymentEnvironmentTokenForMetaSync)',
  description: 'Prints the token alone, so it can be captured.',
  args: ['<deployment_id>', '<environment_id>'],
  options: TOKEN_OPTIONS,
  run: (f, [deploymentId, environmentId], opts) =>
    mintEnvironmentToken(f, `${environmentPath(deploymentId, environmentId)}/tokens-for-meta-sync`, opts),
});
