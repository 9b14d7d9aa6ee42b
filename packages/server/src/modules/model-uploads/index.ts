import type { PlinthModule } from '../module.js';
import { modelUploadRoutes } from './routes.js';
import { modelUploadSchemas } from './schemas.js';
import { ModelUploadService } from './service.js';
import { modelUploadRetention } from './retention.js';

declare module '../module.js' {
  interface Services {
    modelUploads: ModelUploadService;
  }
}

/** Upload sessions of `plinth deploy`: only changed files travel, and finish commits them at once (issue 13). */
export const modelUploadsModule: PlinthModule = {
  name: 'model-uploads',
  tags: {
    'Data Model Uploads': 'Uploading data model files.',
  },
  services: { modelUploads: (ctx) => new ModelUploadService(ctx) },
  tables: ['model_upload', 'model_upload_file'],
  retention: modelUploadRetention,
  schemas: modelUploadSchemas,
  routes: modelUploadRoutes,
};
