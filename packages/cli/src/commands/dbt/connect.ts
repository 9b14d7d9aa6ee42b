import { bodyVerb } from '../../core/rest.js';
import { installationId, installationOption } from '../github/common.js';
import { dbtPath, integrationFields } from './common.js';

export const connect = bodyVerb({
  name: 'connect',
  summary: 'Connect a deployment to the Git repository of its dbt project, or change the connection (connectDbt)',
  description:
    "The server asks the repository for its branches first: one it cannot reach, or a --branch it lacks, is refused and nothing changes. The branch defaults to the repository's HEAD, else main. " +
    "A private repository: with --installation, --repo is owner/repo and the server clones it with the installation's token, as plinth github connect does; " +
    'or an https URL with a user and password or token in it, which the server keeps sealed and never shows.',
  method: 'PUT',
  args: ['<deployment_id>'],
  options: [
    {
      flags: '--repo <url|path>',
      description: 'The Git repository: any URL git understands, or a path on the server; owner/repo with --installation',
    },
    installationOption,
    { flags: '--folder <dir>', description: "The dbt project's folder in the repository (default: its root)" },
    { flags: '--branch <name>', description: "The branch syncs take by default (default: the repository's HEAD, else main)" },
  ],
  path: ([deploymentId]) => dbtPath(deploymentId),
  fields: (opts) => ({
    repository: opts.repo,
    installationId: opts.installation === undefined ? undefined : installationId(opts.installation),
    folder: opts.folder,
    branch: opts.branch,
  }),
  required: [['repository', '--repo']],
  show: integrationFields,
  done: ([deploymentId]) => `Connected deployment ${deploymentId} to its dbt project`,
  examples: [
    'plinth dbt connect 3 --repo https://github.com/acme/analytics.git --folder dbt --branch main',
    'plinth dbt connect 3 --repo acme/analytics --installation 101 --folder dbt',
  ],
});
