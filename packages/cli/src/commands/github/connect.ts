import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { connectionFields, connectionPath, installationId, installationOption } from './common.js';

export const connect = defineVerb({
  name: 'connect',
  summary: 'Connect a deployment to a repository, import its data model onto the deploy branch and build it (connectGithub)',
  description:
    "With --installation, <repo> is owner/repo and the server clones it with the installation's token; without, <repo> is any git URL (https, ssh) or an absolute path on the server. " +
    "The files of --directory (default model) become the deploy branch's model/ folder in one commit, and a build is queued. Later pushes (webhook) or plinth github sync import again.",
  args: ['<deployment_id>', '<repo>'],
  options: [
    installationOption,
    { flags: '--branch <name>', description: 'Branch to import, now and on every push', required: true },
    { flags: '--directory <folder>', description: 'Folder of the repository holding the data model (default model)' },
  ],
  examples: [
    'plinth github connect 3 acme/analytics --installation 101 --branch main',
    'plinth github connect 3 git@github.com:acme/analytics.git --branch main',
  ],
  async run(f, [deploymentId, repository], opts) {
    const path = connectionPath(deploymentId);
    const body = {
      repository,
      branch: opts.branch,
      ...(opts.installation === undefined ? {} : { installationId: installationId(opts.installation) }),
      ...(opts.directory === undefined ? {} : { directory: opts.directory }),
    };
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/deployments/{deploymentId}/github', 'post'>>('POST', path, { body });
    if (f.output.json) return f.output.raw(response);
    const done = response.data;
    f.output.status(
      `Imported ${done.files} file${done.files === 1 ? '' : 's'} at ${done.commitSha.slice(0, 7)}; build ${done.buildId ?? '(none)'} queued`,
    );
    f.output.object({ ...response, data: { ...done.connection, buildId: done.buildId } }, [...connectionFields, ['Build', 'buildId']]);
  },
});
