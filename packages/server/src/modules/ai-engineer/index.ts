import type { PlinthModule, ServiceContext } from '../module.js';
import { aiEngineerRoutes } from './routes.js';
import { aiEngineerSchemas } from './schemas.js';
import { AIEngineerService } from './service.js';

declare module '../module.js' {
  interface Services {
    aiEngineer: AIEngineerService;
  }
}

export const aiEngineerModule: PlinthModule = {
  name: 'ai-engineer',
  tags: {
    'AI Engineer': 'Settings of the AI engineer and the region its agents run in for each user.',
  },
  services: {
    aiEngineer: ({ db, config, services }: ServiceContext) => new AIEngineerService(db, config.regions, services),
  },
  tables: ['ai_engineer_settings', 'agent_region_choice'],
  schemas: aiEngineerSchemas,
  routes: aiEngineerRoutes,
};
