import { defineVerb } from '../../core/define.js';
import { environmentPath, mintEnvironmentToken, TOKEN_OPTIONS } from './shared.js';

export const createToken = defineVerb({
  name: 'create-token',
  summary: 'Mint a data API token for an environment (createDeploymentEnvironmentToken)',
  description: 'Prints the token alone, so it can be captured.',
  args: ['<deployment_id>', '<environment_id>'],
  options: TOKEN_OPTIONS,
  examples: [`plinth environments create-token 1 7 --security-context '{"tenant": "acme"}' --expires-in 600`],
  run: (f, [deploymentId, environmentId], opts) => mintEnvironmentToken(f, `${environmentPath(deploymentId, environmentId)}/tokens`, opts),
});
