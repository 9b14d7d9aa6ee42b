import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../http/auth.js';
import { requires } from '../../http/requirement.js';
import {
  AgentChatParams,
  ChatRequest,
  ChatStreamLine,
  ChatThread,
  ChatThreadList,
  ChatUserQuery,
  DeploymentChatParams,
  ThreadParams,
} from './schemas.js';

export const NDJSON = 'application/x-ndjson';
const tags = ['Chat'];
/** Embed tokens arrive under the data API's credential kind (a bare JWT); API keys act for a user they name. */
const chatters = { auth: requires('EmbedChat', { kinds: ['dataToken', 'apiKey'], resource: 'withinScope' }) };

const STREAM_DESCRIPTION =
  "Cube's Chat API. The answer is `application/x-ndjson`, one ChatStreamLine per line as it happens: `__cutoff__` first " +
  '(`state.chatId` names the thread, new or given), the user message, assistant deltas (`isDelta: true`, `content` to append), ' +
  'tool calls (`toolCall` without then with `result`/`output`), the final answer (`graphPath: ["final"]`), `__state__` last ' +
  '(`state.messages`: the stored thread). A failure after the stream began is a line `{"error", "code"}` (codes: ' +
  'chat_not_configured, llm_unavailable, llm_bad_response, tool_rounds_exceeded, thread_busy, thread_full, internal_error) ' +
  'followed by `__state__`, never an HTTP error. With an embed token the user, groups, attributes and security context are ' +
  "the token's: a sessionSettings field that says otherwise gets 403 naming it. With an API key (admin, or EmbedSessionsManage " +
  'on the deployment) sessionSettings names the user as generate-session does. An unknown or foreign chatId gets 404.';

const streamResponse = {
  200: {
    description: 'The lines of the answer',
    content: { [NDJSON]: { schema: Type.Ref(ChatStreamLine) } },
  },
};

export const chatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const chat = app.services.chat;

  app.post('/api/v1/agents/:agentId/chat/stream-chat-state', {
    config: chatters,
    schema: {
      operationId: 'streamChatState',
      tags,
      summary: 'Ask an agent (stream chat state)',
      description: `${STREAM_DESCRIPTION} The agent must belong to the token's deployment and allow embedding (else 404).`,
      params: AgentChatParams,
      body: Type.Ref(ChatRequest),
      response: streamResponse,
    },
    handler: async (request, reply) =>
      streamed(
        reply,
        await chat.stream(request.account, principalOf(request), { agentId: request.params.agentId }, request.body, request.id),
      ),
  });

  app.post('/api/v1/deployments/:deploymentId/chat/stream-chat-state', {
    config: chatters,
    schema: {
      operationId: 'streamDeploymentChatState',
      tags,
      summary: "Ask the deployment's default agent (stream chat state)",
      description:
        `${STREAM_DESCRIPTION} Embed tokens only (an API key gets 403: name the agent); the agent is the deployment's first agent ` +
        'that allows embedding. `{}` (no input, no chatId) is a probe: it creates nothing and streams `chat_not_configured` when the chat cannot answer.',
      params: DeploymentChatParams,
      body: Type.Ref(ChatRequest),
      response: streamResponse,
    },
    handler: async (request, reply) =>
      streamed(
        reply,
        await chat.stream(request.account, principalOf(request), { deploymentId: request.params.deploymentId }, request.body, request.id),
      ),
  });

  app.get('/api/v1/chat/threads', {
    config: chatters,
    schema: {
      operationId: 'listChatThreads',
      tags,
      summary: "List a user's chat threads",
      description:
        "Newest first, at most 100. An embed token lists its own user's threads (sending a query field gets 403); an API key names the user " +
        'with externalId (and embedTenantName, default the account) or internalId, and sees only threads of deployments it reaches.',
      querystring: ChatUserQuery,
      response: { 200: Type.Ref(ChatThreadList) },
    },
    handler: async (request) => chat.threads(request.account, principalOf(request), request.query),
  });

  app.get('/api/v1/chat/threads/:chatId', {
    config: chatters,
    schema: {
      operationId: 'getChatThread',
      tags,
      summary: 'Get a chat thread with its messages',
      description: "One of the user's threads (named as for listChatThreads), with its stored lines; another user's thread gets 404.",
      params: ThreadParams,
      querystring: ChatUserQuery,
      response: { 200: Type.Ref(ChatThread) },
    },
    handler: async (request) => chat.thread(request.account, principalOf(request), request.params.chatId, request.query),
  });
};

/** A chat answer's lines as they come; no-transform: a proxy that buffers or compresses would hold them back. */
function streamed(reply: FastifyReply, stream: unknown) {
  return reply
    .header('content-type', `${NDJSON}; charset=utf-8`)
    .header('cache-control', 'no-store, no-transform')
    .send(stream as never);
}
