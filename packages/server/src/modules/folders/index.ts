import type { PlinthModule } from '../module.js';

/** Folders of a deployment's workspace (issue 16); the table is migration 0027's. */
export const foldersModule: PlinthModule = {
  name: 'folders',
  tables: ['folder'],
};
