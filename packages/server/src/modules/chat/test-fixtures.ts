import { expect } from 'vitest';
import type { OpenAiStandIn } from '../../test-support/openai-stand-in.js';
import type { TestAccount, TestResponse, TestServer } from '../../test-support/server.js';
import { sampleDeployment } from '../data-api/test-fixtures.js';

/**
 * A deployment built from the sample model (view `sales`, whose group `regional` sees the rows of
 * its `country` attribute), with an LLM endpoint at the stand-in and an agent embedded pages may
 * use on the view; and helpers to mint embed tokens and read chat streams.
 */
export interface ChatSetup {
  account: TestAccount;
  deploymentId: number;
  agentId: number;
  llmId: number;
  /** An embed token for an external user of the regional group with that country. */
  token(externalId: string, country: string, more?: Record<string, unknown>): Promise<string>;
  ask(as: string | TestAccount['admin'], body: Record<string, unknown>, url?: string): Promise<ChatAnswer>;
}

export interface ChatAnswer {
  status: number;
  response: TestResponse;
  lines: any[];
}

export async function chatSetup(
  server: TestServer,
  llm: OpenAiStandIn,
  agent: Record<string, unknown> = {},
  /** Store the endpoint as it is, past the egress check of its creation (as one saved before the policy changed). */
  storeLlm = false,
): Promise<ChatSetup> {
  const { account, deploymentId } = await sampleDeployment(server, server.services.dataApi);
  await server.services.groups.create(account.id, { name: 'regional' });
  await server.services.userAttributes.create(account.id, { name: 'country', type: 'string' });
  const { agentId, llmId } = await chatAgent(server, account, deploymentId, llm, { accessibleViews: ['sales'], ...agent }, storeLlm);

  const token = async (externalId: string, country: string, more: Record<string, unknown> = {}) => {
    const generated = await account.request({
      method: 'POST',
      url: '/api/v1/embed/generate-session',
      as: account.admin,
      body: { deploymentId, externalId, groups: ['regional'], userAttributes: [{ name: 'country', value: country }], ...more },
    });
    expect(generated.status, generated.text).toBe(200);
    const exchanged = await account.request({
      method: 'POST',
      url: '/api/v1/embed/session/token',
      body: { sessionId: generated.body.sessionId },
    });
    expect(exchanged.status, exchanged.text).toBe(200);
    return exchanged.body.token as string;
  };
  const ask = async (
    as: string | TestAccount['admin'],
    body: Record<string, unknown>,
    url = `/api/v1/agents/${agentId}/chat/stream-chat-state`,
  ) => {
    const response = await account.request({ method: 'POST', url, as, body });
    const lines =
      response.status === 200
        ? response.text
            .split('\n')
            .filter((l) => l.trim() !== '')
            .map((l) => JSON.parse(l))
        : [];
    return { status: response.status, response, lines };
  };
  return { account, deploymentId, agentId, llmId, token, ask };
}

/**
 * An LLM endpoint at the stand-in and an agent of the deployment on it, open to embedded users
 * (`accessibleViews` and the rest of the agent as given): what makes a deployment's chat answer.
 */
export async function chatAgent(
  server: TestServer,
  account: TestAccount,
  deploymentId: number,
  llm: OpenAiStandIn,
  agent: Record<string, unknown>,
  storeLlm = false,
): Promise<{ agentId: number; llmId: number }> {
  const llmRow = { name: 'stand-in', baseUrl: llm.baseUrl, model: 'stand-in-model', apiKey: 'sk-stand-in' };
  const created = storeLlm
    ? {
        status: 201,
        text: '',
        body: await server.store.db
          .insertInto('agent_llm')
          .values({ account_id: account.id, name: llmRow.name, base_url: llmRow.baseUrl, model: llmRow.model, api_key_sealed: null })
          .returning('id')
          .executeTakeFirstOrThrow(),
      }
    : await account.request({ method: 'POST', url: '/api/v1/agent-llms', as: account.admin, body: llmRow });
  expect(created.status, created.text).toBe(201);
  const madeAgent = await account.request({
    method: 'POST',
    url: `/api/v1/deployments/${deploymentId}/agents`,
    as: account.admin,
    body: { name: 'analyst', agentLlmId: created.body.id, allowEmbedding: true, ...agent },
  });
  expect(madeAgent.status, madeAgent.text).toBe(201);
  return { agentId: madeAgent.body.id as number, llmId: created.body.id as number };
}

/** The final answer of a stream (Cube's rule: the last assistant line of graphPath ["final"]). */
export const finalAnswer = (lines: any[]) => lines.filter((l) => l.role === 'assistant' && l.graphPath?.[0] === 'final').at(-1);
/** The completed tool calls of a stream. */
export const toolResults = (lines: any[]) => lines.filter((l) => l.toolCall?.result !== undefined);
export const errorOf = (lines: any[]) => lines.find((l) => l.error !== undefined);
export const chatIdOf = (lines: any[]) => lines.find((l) => l.id === '__cutoff__')?.state?.chatId as string;

/** The scripted tool call of a query on the sales view. */
export const salesQuery = (query: Record<string, unknown>, chartType = 'bar') => ({
  toolCalls: [{ name: 'cubeQuery', arguments: { query, chartType, title: 'Sales by country' } }],
});
