import { bodyVerb, id } from '../../core/rest.js';

export const update = bodyVerb({
  name: 'update',
  summary: 'Update a deployment: name, deploy mode, creation method, engine version or channel (updateDeployment)',
  description:
    '--release-channel-version takes <version>, v<version> or <image_repo>:v<version> (see `deployments versions`); ' +
    "--release-channel moves to that channel's latest version. Other fields (deployMode, creationMethod) go in -d.",
  method: 'PUT',
  args: ['<deployment_id>'],
  path: ([deploymentId]) => `/api/v1/deployments/${id(deploymentId, 'deployment_id')}`,
  options: [
    { flags: '--name <name>', description: 'New name' },
    { flags: '--release-channel-version <version>', description: 'Engine version to run, e.g. 1.2.0, v1.2.0 or plinth/engine:v1.2.0' },
    {
      flags: '--release-channel <channel>',
      description: 'Release channel to follow (moves to its latest version), e.g. latest or release',
    },
  ],
  fields: (opts) => ({ name: opts.name, releaseChannelVersion: opts.releaseChannelVersion, releaseChannel: opts.releaseChannel }),
  done: ([deploymentId]) => `Updated deployment ${deploymentId}`,
  examples: [
    'plinth deployments update 1 --release-channel-version v1.3.0',
    'plinth deployments update 1 --release-channel latest',
    `plinth deployments update 1 -d '{"deployMode": "cli"}'`,
  ],
});
