import type { FastifyPluginAsync } from 'fastify';
import type { PlinthModule, ServiceContext } from '../module.js';
import { AgentLlmService } from './llms.js';
import { AgentRepo } from './repo.js';
import { agentLlmRoutes, agentRoutes } from './routes.js';
import { agentSchemas } from './schemas.js';
import { AgentService } from './service.js';

declare module '../module.js' {
  interface Services {
    agents: AgentService;
    agentLlms: AgentLlmService;
  }
}

const routes: FastifyPluginAsync = async (app) => {
  await app.register(agentRoutes);
  await app.register(agentLlmRoutes);
};

export const agentsModule: PlinthModule = {
  name: 'agents',
  tags: {
    Agents: "Agents of a deployment, their skills, and the account's OpenAI-compatible LLM endpoints they call.",
  },
  services: {
    agentLlms: ({ db, secrets, egress }: ServiceContext) => new AgentLlmService(new AgentRepo(db), secrets, egress),
    agents: ({ db, services }: ServiceContext) => new AgentService(new AgentRepo(db), services.agentLlms, services),
  },
  tables: ['agent_llm', 'agent'],
  schemas: agentSchemas,
  routes,
};
