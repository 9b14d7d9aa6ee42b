import type { PlinthModule } from '../module.js';
import { workspaceRoutes } from './routes.js';
import { workspaceSchemas } from './schemas.js';
import { WorkspaceService } from './service.js';

declare module '../module.js' {
  interface Services {
    workspace: WorkspaceService;
  }
}

/** My and shared workspace of a deployment (issue 16): a view over folders, workbooks and reports, and moving them. */
export const workspaceModule: PlinthModule = {
  name: 'workspace',
  tags: {
    Workspace: 'Items of the personal and shared workspaces.',
  },
  services: { workspace: (ctx) => new WorkspaceService(ctx) },
  schemas: workspaceSchemas,
  routes: workspaceRoutes,
};
