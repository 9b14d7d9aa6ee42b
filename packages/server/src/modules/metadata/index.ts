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
  tags: {
    Metadata: "Cubes, views and members of a deployment's current build, as the caller's access policies show them.",
  },
  services: { metadata: ({ services }: ServiceContext) => new MetadataService(services) },
  schemas: metadataSchemas,
  routes: metadataRoutes,
};
