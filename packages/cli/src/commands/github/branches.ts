import { builtVerb } from '../../core/define.js';
import { enc, listVerb } from '../../core/rest.js';
import { installationId, installationOption, ownerRepo } from './common.js';

export const branches = builtVerb({
  ...listVerb({
    summary: "List a repository's branches through an installation of the GitHub App (listGithubBranches)",
    args: ['<owner/repo>'],
    paged: false,
    options: [{ ...installationOption, required: true }],
    path: ([repository]) => {
      const { owner, repo } = ownerRepo(repository);
      return `/api/v1/github/repositories/${enc(owner)}/${enc(repo)}/branches`;
    },
    query: (opts) => ({ installationId: installationId(opts.installation) }),
    columns: [
      ['Name', 'name'],
      ['Commit', 'commitSha'],
      ['Protected', 'protected'],
    ],
  }),
  name: 'branches',
  aliases: [],
});
