import type { JobKind } from '../../jobs/kind.js';
import type { Job } from '../../store/jobs.js';
import type { PlinthModule } from '../module.js';
import { githubRoutes } from './routes.js';
import { githubSchemas } from './schemas.js';
import { GithubService, IMPORT_JOB, IMPORT_MAX_ATTEMPTS, type ImportJobPayload } from './service.js';

declare module '../module.js' {
  interface Services {
    github: GithubService;
  }
}

/** Imports after a push or `plinth github sync`; claimed from the store like builds, so any process runs each once. */
export const githubImportJob: JobKind = {
  kind: IMPORT_JOB,
  maxAttempts: IMPORT_MAX_ATTEMPTS,
  // A clone may take up to the checkout's 120 s limit; no heartbeat can run inside git.
  leaseMs: 180_000,
  handle: (job, context) => context.services.github.runImport((job as Job<ImportJobPayload>).payload, context.signal),
};

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
