import type { PlinthModule, ServiceContext } from '../module.js';
import { embedRoutes } from './routes.js';
import { embedSchemas } from './schemas.js';
import { EmbedService } from './service.js';
import { embedRetention } from './retention.js';

declare module '../module.js' {
  interface PlinthActions {
    EmbedSessionsManage: true;
  }
  interface Services {
    embed: EmbedService;
  }
}

export const embedModule: PlinthModule = {
  name: 'embed',
  permissions: {
    EmbedSessionsManage: {
      description: 'Mint embed sessions and audit the sessions minted.',
      roles: ['admin'],
      keys: true,
    },
  },
  tags: {
    Embed: 'Signed embedding: sessions minted for external or internal users, exchanged for embed tokens.',
  },
  services: { embed: ({ db, secrets, services }: ServiceContext) => new EmbedService(db, secrets, services) },
  tables: ['embed_session'],
  retention: embedRetention,
  schemas: embedSchemas,
  routes: embedRoutes,
};
