import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { Deleted } from '../../http/common-schemas.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { AGENT_SKILLS } from './skills.js';
import {
  Agent,
  AgentLlm,
  AgentParams,
  AgentSkillsResponse,
  AgentsQuery,
  CreateAgentBody,
  CreateAgentLlmBody,
  DeploymentParams,
  LlmParams,
  SkillsQuery,
  UpdateAgentBody,
  UpdateAgentLlmBody,
} from './schemas.js';

const tags = ['Agents'];
const onDeployment = { resource: deploymentParam() };
const readers = { auth: requires('AgentRead', onDeployment) };
const managers = { auth: requires('AgentManage', { ...onDeployment, doing: 'manage agents' }) };
const NameTaken = Type.Ref('Error', { description: 'Another agent of the deployment has this name.' });

/** Agents of a deployment and their skills. */
export const agentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const agents = app.services.agents;
  const base = '/api/v1/deployments/:deploymentId';

  app.get(`${base}/agents`, {
    config: readers,
    schema: {
      operationId: 'getAgents',
      tags,
      summary: 'Get agents',
      description:
        'Every agent of the deployment, oldest first; `allowEmbedding` keeps only those that embedded pages may (or may not) use.',
      params: DeploymentParams,
      querystring: AgentsQuery,
      response: { 200: Type.Array(Type.Ref(Agent)) },
    },
    handler: async (request) => agents.list(request.account.id, request.params.deploymentId, request.query.allowEmbedding),
  });

  app.post(`${base}/agents`, {
    config: managers,
    schema: {
      operationId: 'createAgent',
      tags,
      summary: 'Create an agent',
      description:
        "`accessibleViews` must be views of the deployment's current build (400 naming one that is not); `agentLlmId` an LLM endpoint of the account.",
      params: DeploymentParams,
      body: Type.Ref(CreateAgentBody),
      response: { 201: Type.Ref(Agent), 409: NameTaken },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await agents.create(userPrincipalOf(request), request.params.deploymentId, request.body)),
  });

  app.put(`${base}/agents/:agentId`, {
    config: managers,
    schema: {
      operationId: 'updateAgent',
      tags,
      summary: 'Update an agent',
      description: 'Fields left out keep their value; `accessibleViews` replaces the list and is checked as on creation.',
      params: AgentParams,
      body: Type.Ref(UpdateAgentBody),
      response: { 200: Type.Ref(Agent), 409: NameTaken },
    },
    handler: async (request) => agents.update(userPrincipalOf(request), request.params.deploymentId, request.params.agentId, request.body),
  });

  app.delete(`${base}/agents/:agentId`, {
    config: managers,
    schema: { operationId: 'deleteAgent', tags, summary: 'Delete an agent', params: AgentParams, response: { 200: Type.Ref(Deleted) } },
    handler: async (request) => {
      await agents.delete(request.account.id, request.params.deploymentId, request.params.agentId);
      return { id: request.params.agentId, deleted: true as const };
    },
  });

  app.get(`${base}/agent-skills`, {
    config: readers,
    schema: {
      operationId: 'getAgentSkills',
      tags,
      summary: 'Get agent skills',
      description:
        'What an agent of this deployment can do: describe the views it may use and plan or run queries on them through the data API, as the asking user. The same for every branch.',
      params: DeploymentParams,
      querystring: SkillsQuery,
      response: { 200: Type.Ref(AgentSkillsResponse) },
    },
    handler: async (request) => {
      await agents.assertDeployment(request.account.id, request.params.deploymentId);
      return { skills: [...AGENT_SKILLS] };
    },
  });
};

const llmReaders = { auth: requires('AgentRead', { resource: 'withinScope' }) };
// The account's LLM endpoints serve every deployment's agents.
const llmManagers = { auth: requires('AgentManage', { resource: 'account', doing: 'manage LLM endpoints' }) };
const LlmNameTaken = Type.Ref('Error', { description: 'Another LLM endpoint of the account has this name.' });

/** The account's OpenAI-compatible LLM endpoints. */
export const agentLlmRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const llms = app.services.agentLlms;

  app.get('/api/v1/agent-llms', {
    config: llmReaders,
    schema: {
      operationId: 'getAgentLlms',
      tags,
      summary: 'List the LLM endpoints of the account',
      description: 'API keys are never returned; `hasApiKey` says whether one is stored.',
      response: { 200: Type.Array(Type.Ref(AgentLlm)) },
    },
    handler: async (request) => llms.list(request.account.id),
  });

  app.post('/api/v1/agent-llms', {
    config: llmManagers,
    schema: {
      operationId: 'createAgentLlm',
      tags,
      summary: 'Add an LLM endpoint',
      description: 'An OpenAI-compatible HTTP API. The key is sealed when stored and never returned.',
      body: Type.Ref(CreateAgentLlmBody),
      response: { 201: Type.Ref(AgentLlm), 409: LlmNameTaken },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await llms.create(request.account.id, userPrincipalOf(request).userId, request.body)),
  });

  app.put('/api/v1/agent-llms/:agentLlmId', {
    config: llmManagers,
    schema: {
      operationId: 'updateAgentLlm',
      tags,
      summary: 'Update an LLM endpoint',
      description: 'Fields left out keep their value; `apiKey: null` removes the stored key.',
      params: LlmParams,
      body: Type.Ref(UpdateAgentLlmBody),
      response: { 200: Type.Ref(AgentLlm), 409: LlmNameTaken },
    },
    handler: async (request) => llms.update(request.account.id, request.params.agentLlmId, request.body),
  });

  app.delete('/api/v1/agent-llms/:agentLlmId', {
    config: llmManagers,
    schema: {
      operationId: 'deleteAgentLlm',
      tags,
      summary: 'Delete an LLM endpoint',
      description: 'Refused (409, naming them) while agents call it.',
      params: LlmParams,
      response: { 200: Type.Ref(Deleted), 409: Type.Ref('Error', { description: 'Agents still call it.' }) },
    },
    handler: async (request) => {
      await llms.delete(request.account.id, request.params.agentLlmId);
      return { id: request.params.agentLlmId, deleted: true as const };
    },
  });
};
