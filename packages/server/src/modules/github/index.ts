import type { PlinthModule } from '../module.js';
import { githubImportJob } from './job.js';
import { githubRoutes } from './routes.js';
import { githubSchemas } from './schemas.js';
import { GithubService } from './service.js';

declare module '../module.js' {
  interface Services {
    github: GithubService;
  }
}

/** A deployment's GitHub connection and the GitHub App behind it (issue 15). */
export const githubModule: PlinthModule = {
  name: 'github',
  tags: {
    GitHub: 'GitHub repositories as the source of a data model.',
    'GitHub Connection': 'Connecting an account to GitHub.',
  },
  services: { github: (ctx) => new GithubService(ctx) },
  tables: ['github_connection'],
  schemas: githubSchemas,
  routes: githubRoutes,
  jobs: [githubImportJob],
};
