import { builtVerb } from '../../core/define.js';
import { id, listVerb } from '../../core/rest.js';

export const repos = builtVerb({
  ...listVerb({
    summary: 'List the repositories an installation of the GitHub App may read (listGithubRepositories)',
    args: ['<installation_id>'],
    paged: false,
    path: ([installation]) => `/api/v1/github/installations/${id(installation, 'installation_id')}/repositories`,
    columns: [
      ['Repository', 'fullName'],
      ['Private', 'private'],
      ['Default branch', 'defaultBranch'],
      ['URL', 'htmlUrl'],
    ],
  }),
  name: 'repos',
  aliases: [],
});
