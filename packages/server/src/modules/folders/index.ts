import type { PlinthModule } from '../module.js';
import { folderRoutes } from './routes.js';
import { folderSchemas } from './schemas.js';
import { FolderService } from './service.js';

declare module '../module.js' {
  interface Services {
    folders: FolderService;
  }
}

/** Folders of a deployment's workspace (issue 16); the table is migration 0027's. */
export const foldersModule: PlinthModule = {
  name: 'folders',
  tags: {
    Folders: 'Folders that organise reports and workbooks.',
  },
  services: { folders: (ctx) => new FolderService(ctx) },
  tables: ['folder'],
  schemas: folderSchemas,
  routes: folderRoutes,
};
