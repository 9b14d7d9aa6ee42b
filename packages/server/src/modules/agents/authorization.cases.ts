import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2)}`;

const deploymentOf = async (account: TestAccount, server: TestServer) =>
  (await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;

const anLlm = (account: TestAccount, server: TestServer) =>
  server.services.agentLlms.create(account.id, account.admin.id, {
    name: unique('llm'),
    baseUrl: 'https://llm.example.com/v1',
    model: 'm',
  });

/** An agent made through the service (no views, so no build is needed). */
async function agentUrl(account: TestAccount, server: TestServer) {
  const deploymentId = await deploymentOf(account, server);
  const principal = {
    kind: 'apiKey' as const,
    accountId: account.id,
    credentialId: account.admin.apiKeyId,
    userId: account.admin.id,
    role: 'admin' as const,
    deploymentIds: null,
  };
  const agent = await server.services.agents.create(principal, deploymentId, { name: unique('agent') });
  return { url: `/api/v1/deployments/${deploymentId}/agents/${agent.id}` };
}

/** The agents module's operations, for the shared authorisation suite (run by agents.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'getAgents',
    method: 'GET',
    prepare: async (account, server) => ({ url: `/api/v1/deployments/${await deploymentOf(account, server)}/agents` }),
  },
  {
    operation: 'getAgentSkills',
    method: 'GET',
    prepare: async (account, server) => ({ url: `/api/v1/deployments/${await deploymentOf(account, server)}/agent-skills` }),
  },
  {
    operation: 'createAgent',
    method: 'POST',
    successStatus: 201,
    prepare: async (account, server) => ({
      url: `/api/v1/deployments/${await deploymentOf(account, server)}/agents`,
      body: { name: unique('agent'), allowEmbedding: true },
    }),
  },
  {
    operation: 'updateAgent',
    method: 'PUT',
    prepare: async (account, server) => ({ ...(await agentUrl(account, server)), body: { allowEmbedding: true } }),
  },
  { operation: 'deleteAgent', method: 'DELETE', prepare: agentUrl },
  { operation: 'getAgentLlms', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/agent-llms' }) },
  {
    operation: 'createAgentLlm',
    method: 'POST',
    successStatus: 201,
    targetsResource: false,
    prepare: async () => ({
      url: '/api/v1/agent-llms',
      body: { name: unique('llm'), baseUrl: 'https://llm.example.com/v1', model: 'm', apiKey: 'sk-x' },
    }),
  },
  {
    operation: 'updateAgentLlm',
    method: 'PUT',
    prepare: async (account, server) => ({ url: `/api/v1/agent-llms/${(await anLlm(account, server)).id}`, body: { model: 'other' } }),
  },
  {
    operation: 'deleteAgentLlm',
    method: 'DELETE',
    prepare: async (account, server) => ({ url: `/api/v1/agent-llms/${(await anLlm(account, server)).id}` }),
  },
];
