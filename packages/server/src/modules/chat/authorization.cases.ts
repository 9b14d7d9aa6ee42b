import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';

/**
 * The chat's operations, for the authorisation coverage. They take embed tokens (bare JWTs, which
 * the data API's verifier refuses with Cube's 403) beside API keys, which the shared suite cannot
 * mint, so credentials.test.ts checks each credential on them instead: a missing header, a bad or
 * foreign token, a data API token, an access token, a member's key, a key limited to another
 * deployment, another account's key and another account's agent or thread.
 */
export const ownSuite = { file: 'credentials.test.ts', marker: 'every chat operation refuses' };

/** An agent without views or LLM, so no build is needed: the stream then says the chat is not configured. */
export async function bareAgent(server: TestServer, account: TestAccount) {
  const deploymentId = (await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
  const principal = {
    kind: 'apiKey' as const,
    accountId: account.id,
    credentialId: account.admin.apiKeyId,
    userId: account.admin.id,
    role: 'admin' as const,
    deploymentIds: null,
  };
  const agent = await server.services.agents.create(principal, deploymentId, { name: 'chat', allowEmbedding: true });
  return { deploymentId, agentId: agent.id };
}

/** A thread of external user `ann` of the account's default tenant, stored directly. */
export async function storedThread(server: TestServer, account: TestAccount) {
  const { deploymentId, agentId } = await bareAgent(server, account);
  const id = crypto.randomUUID();
  await server.store.db
    .insertInto('chat_thread')
    .values({
      id,
      account_id: account.id,
      deployment_id: deploymentId,
      agent_id: agentId,
      owner: JSON.stringify(['external', account.name, 'ann']),
      title: 'Hi',
    })
    .execute();
  return { id, deploymentId };
}

const ANN = { input: 'Hi', sessionSettings: { externalId: 'ann' } };

export const cases: OperationCase[] = [
  {
    operation: 'streamChatState',
    method: 'POST',
    scopedStatus: 403,
    prepare: async (account, server) => ({
      url: `/api/v1/agents/${(await bareAgent(server, account)).agentId}/chat/stream-chat-state`,
      body: ANN,
    }),
  },
  {
    operation: 'streamDeploymentChatState',
    method: 'POST',
    prepare: async (account, server) => ({
      url: `/api/v1/deployments/${(await bareAgent(server, account)).deploymentId}/chat/stream-chat-state`,
      body: {},
    }),
  },
  {
    operation: 'listChatThreads',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/chat/threads?externalId=ann' }),
  },
  {
    operation: 'getChatThread',
    method: 'GET',
    scopedStatus: 404,
    prepare: async (account, server) => ({ url: `/api/v1/chat/threads/${(await storedThread(server, account)).id}?externalId=ann` }),
  },
];
