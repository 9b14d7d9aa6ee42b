import type { PlinthModule, ServiceContext } from '../module.js';
import { embedRoutes } from './routes.js';
import { embedSchemas } from './schemas.js';
import { EmbedService } from './service.js';

declare module '../module.js' {
  interface Services {
    embed: EmbedService;
  }
}

export const embedModule: PlinthModule = {
  name: 'embed',
  services: { embed: ({ db, secrets, services }: ServiceContext) => new EmbedService(db, secrets, services) },
  tables: ['embed_session'],
  schemas: embedSchemas,
  routes: embedRoutes,
};
