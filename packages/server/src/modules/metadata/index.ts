import type { PlinthModule, ServiceContext } from '../module.js';
import { metadataRoutes } from './routes.js';
import { metadataSchemas } from './schemas.js';
import { MetadataService } from './service.js';

declare module '../module.js' {
  interface Services {
    metadata: MetadataService;
  }
}

export const metadataModule: PlinthModule = {
  name: 'metadata',
  services: { metadata: ({ services }: ServiceContext) => new MetadataService(services) },
  schemas: metadataSchemas,
  routes: metadataRoutes,
};
