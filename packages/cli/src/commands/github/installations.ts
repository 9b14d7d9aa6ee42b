import { builtVerb } from '../../core/define.js';
import { listVerb } from '../../core/rest.js';

export const installations = builtVerb({
  ...listVerb({
    summary: 'List the installations of the GitHub App (listGithubInstallations)',
    paged: false,
    path: () => '/api/v1/github/installations',
    columns: [
      ['ID', 'id'],
      ['Account', 'account'],
      ['Type', 'accountType'],
      ['Repositories', 'repositorySelection'],
      ['Suspended', 'suspended'],
    ],
  }),
  name: 'installations',
  aliases: [],
});
