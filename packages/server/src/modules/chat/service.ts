import { randomUUID } from 'node:crypto';
import type { EgressPolicy } from '../../egress/policy.js';
import { toIso } from '../../http/common-schemas.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { AccountRow, ChatThreadRow } from '../../store/schema.js';
import type { Services } from '../module.js';
import { apiKeyCaller, embedCaller, ownerFor, type ChatCaller } from './caller.js';
import { ChatError, LIMITS } from './limits.js';
import { LineStream, LiveTurns } from './live.js';
import type { ChatRepo } from './repo.js';
import { runTurn, type Line } from './runtime.js';
import type { ChatRequest, ChatThreadSummary, ChatUserQuery } from './schemas.js';

export type AgentChoice = { agentId: number } | { deploymentId: number };
type Deps = Pick<Services, 'agents' | 'dataApi' | 'embed' | 'users'>;

/**
 * The analytics chat: Cube's Chat API over the deployment's agents. Everything that can be
 * refused before the answer starts (credential, sessionSettings, agent, thread) is an HTTP error;
 * after that the stream is 200 and a failure is an error line, so a client always reads lines.
 */
export class ChatService {
  private readonly live = new LiveTurns();

  constructor(
    private readonly repo: ChatRepo,
    private readonly services: Deps,
    private readonly egress: EgressPolicy,
  ) {}

  async stream(account: AccountRow, principal: Principal, choice: AgentChoice, body: ChatRequest, requestId: string): Promise<LineStream> {
    const { caller, agent } = await this.resolve(account, principal, choice, body);
    const thread = body.chatId === undefined ? undefined : await this.ownThread(account.id, caller.owner, body.chatId);
    if (thread && thread.deployment_id !== caller.principal.claims.deploymentId) throw notFound(`Chat thread ${body.chatId} not found`);
    const out = new LineStream();
    const replay =
      body.messageId === undefined || body.input === undefined ? undefined : await this.repeated(account.id, caller.owner, body.messageId);
    if (replay) {
      void this.replay(account.id, replay, body.messageId!, out);
      return out;
    }
    void this.answer(account.id, caller, agent, thread, body, out, requestId).catch((error: unknown) => {
      out.line(errorLine(error, requestId));
      out.end();
    });
    return out;
  }

  private async resolve(account: AccountRow, principal: Principal, choice: AgentChoice, body: ChatRequest) {
    if (principal.kind === 'embedToken') {
      const caller = embedCaller(principal, body.sessionSettings);
      return { caller, agent: await this.agentFor(account.id, choice, caller.principal.claims.deploymentId) };
    }
    if (principal.kind !== 'apiKey') throw forbidden('The chat is used with an embed token or an API key');
    if (!('agentId' in choice))
      throw forbidden('agentId is required for Api-Key authentication: use /api/v1/agents/{agentId}/chat/stream-chat-state');
    const found = await this.services.agents.forChat(account.id, choice);
    if (!found) throw notFound(`Agent ${choice.agentId} not found`);
    const caller = await apiKeyCaller(this.services, account, principal, found.deploymentId, body.sessionSettings);
    return { caller, agent: found };
  }

  /** The agent form must name an agent of the token's deployment that embedded users may use; the deployment form its default. */
  private async agentFor(accountId: number, choice: AgentChoice, deploymentId: number) {
    if ('deploymentId' in choice) {
      if (choice.deploymentId !== deploymentId) throw notFound(`Deployment ${choice.deploymentId} not found`);
      return this.services.agents.forChat(accountId, choice);
    }
    const agent = await this.services.agents.forChat(accountId, choice);
    if (!agent || agent.deploymentId !== deploymentId || !agent.allowEmbedding) throw notFound(`Agent ${choice.agentId} not found`);
    return agent;
  }

  private async ownThread(accountId: number, owner: string, chatId: string): Promise<ChatThreadRow> {
    const thread = await this.repo.thread(accountId, owner, chatId);
    if (!thread) throw notFound(`Chat thread ${chatId} not found`);
    return thread;
  }

  /** The thread of a messageId this user already sent, if any. */
  private async repeated(accountId: number, owner: string, messageId: string): Promise<ChatThreadRow | undefined> {
    return this.repo.threadOfMessage(accountId, owner, messageId);
  }

  private async replay(accountId: number, thread: ChatThreadRow, messageId: string, out: LineStream): Promise<void> {
    out.line({ id: '__cutoff__', role: 'assistant', state: { chatId: thread.id, isStreaming: true, agentId: thread.agent_id }, sort: 0 });
    if (this.live.follow(`${thread.id}:${messageId}`, out)) return;
    const lines = (await this.repo.messages(accountId, thread.id)).map((m) => m.line);
    const start = lines.findIndex((line) => line.role === 'user' && line.id === messageId);
    const end = lines.findIndex((line, i) => i > start && line.role === 'user');
    for (const line of lines.slice(start, end === -1 ? undefined : end)) out.line(line);
    out.line(stateLine(thread.id, lines));
    out.end();
  }

  private async answer(
    accountId: number,
    caller: ChatCaller,
    agent: Awaited<ReturnType<Services['agents']['forChat']>>,
    existing: ChatThreadRow | undefined,
    body: ChatRequest,
    out: LineStream,
    requestId: string,
  ): Promise<void> {
    const agentId = existing?.agent_id ?? agent?.id ?? null;
    const input = body.input;
    if (input === undefined || !agent?.llm) {
      out.line({ id: '__cutoff__', role: 'assistant', state: { chatId: existing?.id ?? null, isStreaming: false, agentId }, sort: 0 });
      if (input !== undefined || (!existing && !agent?.llm)) out.line(notConfigured(agent));
      const lines = existing ? (await this.repo.messages(accountId, existing.id)).map((m) => m.line) : [];
      out.line(stateLine(existing?.id ?? null, lines));
      return void out.end();
    }
    const chatId = existing?.id ?? randomUUID();
    if (!existing) {
      const title = input.trim().replace(/\s+/g, ' ').slice(0, 80) || 'Untitled';
      await this.repo.insertThread({
        id: chatId,
        account_id: accountId,
        deployment_id: agent.deploymentId,
        agent_id: agent.id,
        owner: caller.owner,
        title,
      });
    }
    const messageId = body.messageId ?? `${Date.now()}-message`;
    const publish = this.live.start(`${chatId}:${messageId}`);
    const send = (line: Line) => {
      out.line(line);
      publish(line);
    };
    send({ id: '__cutoff__', role: 'assistant', state: { chatId, isStreaming: true, agentId }, sort: 0 });
    let started = false;
    try {
      if (!(await this.repo.startTurn(accountId, chatId))) throw new ChatError('thread_busy', 'Streaming for thread is in progress');
      started = true;
      const { count, lastSort } = await this.repo.count(accountId, chatId);
      if (count >= LIMITS.threadMessages) {
        throw new ChatError('thread_full', `The thread holds ${LIMITS.threadMessages} messages, the most it may: start a new thread`);
      }
      const history = (await this.repo.messages(accountId, chatId)).map((m) => m.line);
      const user = { id: messageId, role: 'user', content: input, isDelta: false, sort: lastSort + 1 };
      await this.repo.append(accountId, chatId, lastSort + 1, user, messageId);
      send(user);
      await runTurn(this.services, this.egress, {
        caller,
        llm: agent.llm,
        accessibleViews: agent.accessibleViews,
        history,
        input,
        sort: lastSort + 2,
        emit: async (line, store) => {
          if (store) await this.repo.append(accountId, chatId, line.sort as number, line);
          send(line);
        },
      });
    } catch (error) {
      send(errorLine(error, requestId));
    } finally {
      if (started) await this.repo.endTurn(accountId, chatId).catch(() => undefined);
      const lines = await this.repo.messages(accountId, chatId).catch(() => []);
      send(
        stateLine(
          chatId,
          lines.map((m) => m.line),
        ),
      );
      publish(null);
      out.end();
    }
  }

  async threads(account: AccountRow, principal: Principal, query: ChatUserQuery): Promise<{ threads: ChatThreadSummary[] }> {
    const { owner, deploymentIds } = await ownerFor(this.services, account, principal, query);
    return { threads: (await this.repo.threads(account.id, owner, deploymentIds)).map(summary) };
  }

  async thread(account: AccountRow, principal: Principal, chatId: string, query: ChatUserQuery) {
    const { owner, deploymentIds } = await ownerFor(this.services, account, principal, query);
    const thread = await this.ownThread(account.id, owner, chatId);
    if (deploymentIds !== null && !deploymentIds.includes(thread.deployment_id)) throw notFound(`Chat thread ${chatId} not found`);
    const messages = (await this.repo.messages(account.id, chatId)).map((m) => m.line);
    return { ...summary(thread), isStreaming: isStreaming(thread), messages };
  }
}

const isStreaming = (thread: ChatThreadRow) =>
  thread.streaming_since !== null && thread.streaming_since.getTime() > Date.now() - LIMITS.turnMs;

function summary(thread: ChatThreadRow): ChatThreadSummary {
  return {
    chatId: thread.id,
    title: thread.title,
    deploymentId: thread.deployment_id,
    agentId: thread.agent_id,
    createdAt: toIso(thread.created_at),
    updatedAt: toIso(thread.updated_at),
  };
}

function stateLine(chatId: string | null, messages: Line[]): Line {
  return { id: '__state__', role: 'assistant', state: { chatId, isStreaming: false, messages }, isDelta: false, sort: messages.length + 1 };
}

function notConfigured(agent: { id: number; llm: unknown } | undefined): Line {
  const error = agent
    ? `The chat is not configured: agent ${agent.id} has no LLM endpoint (an admin sets its agentLlmId)`
    : 'The chat is not configured: the deployment has no agent that embedded pages may use (an admin creates one with allowEmbedding and an LLM endpoint)';
  return { error, code: 'chat_not_configured' };
}

function errorLine(error: unknown, requestId: string): Line {
  if (error instanceof ChatError) return { error: error.message, code: error.code };
  if (error instanceof Error && 'status' in error && typeof error.status === 'number' && error.status < 500) {
    return { error: error.message, code: 'internal_error' };
  }
  return { error: `The chat failed unexpectedly (request ${requestId})`, code: 'internal_error' };
}
