import type { Ok } from '@plinth/api-client';
import { positiveInt, readJsonArg } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { id } from '../../core/rest.js';

export const token = defineVerb({
  name: 'token',
  summary: "Mint a token for a deployment's data API (deploymentToken)",
  description: 'Prints the token alone, so it can be captured: TOKEN=$(plinth deployments token 1).',
  args: ['<deployment_id>'],
  options: [
    { flags: '--security-context <json>', description: 'Security context of the token, a JSON object (or @file, or - for standard input)' },
    { flags: '--expires-in <seconds>', description: 'Lifetime in seconds (default 24 hours, at most 30 days)' },
    {
      flags: '--branch <name>',
      description:
        "A dev-mode branch of this credential: the token opens only that branch's dev-mode URL (needs SchemaUpdateDevBranches, not DeploymentUpdate)",
    },
  ],
  examples: [
    'plinth deployments token 1',
    `plinth deployments token 1 --security-context '{"tenant": "acme"}' --expires-in 3600`,
    'plinth deployments token 1 --branch dev-3f2a9c1b7e',
  ],
  async run(f, [deploymentId], opts) {
    const path = `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/token`;
    const body: Record<string, unknown> = {};
    if (opts.securityContext !== undefined) {
      const context = await readJsonArg(f.io, opts.securityContext, '--security-context');
      if (context === null || typeof context !== 'object' || Array.isArray(context)) {
        throw new UsageError('--security-context must be a JSON object');
      }
      body.securityContext = context;
    }
    if (opts.expiresIn !== undefined) body.expiresIn = positiveInt(opts.expiresIn, '--expires-in');
    if (opts.branch !== undefined) {
      if (opts.branch === '') throw new UsageError('--branch is empty; name a dev-mode branch of this credential');
      body.branch = opts.branch;
    }
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/deployments/{deploymentId}/token', 'post'>>('POST', path, { body });
    if (f.output.json) return f.output.raw(response);
    f.output.data(response.data.cubeApiToken);
  },
});
