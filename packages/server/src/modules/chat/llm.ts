import { egressFetch } from '../../egress/fetch.js';
import { EgressRefusedError, type EgressPolicy } from '../../egress/policy.js';
import { ChatError, LIMITS } from './limits.js';

/** The OpenAI Chat Completions messages the runtime sends. */
export type LlmMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: LlmToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface LlmToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface LlmTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface LlmEndpoint {
  baseUrl: string;
  model: string;
  apiKey: string | null;
}

export interface LlmAnswer {
  content: string;
  toolCalls: LlmToolCall[];
}

/**
 * One Chat Completions call with `stream: true`: text arrives through `onText` as the endpoint
 * sends it; an endpoint that answers a whole JSON completion instead is read as one. The URL is
 * the tenant's, so it goes through the egress policy; every failure is a ChatError the stream can
 * show (llm_unavailable: not reached or an HTTP error; llm_bad_response: not a completion).
 */
export async function complete(
  egress: EgressPolicy,
  endpoint: LlmEndpoint,
  body: { messages: LlmMessage[]; tools: LlmTool[] },
  onText: (text: string) => void,
  signal?: AbortSignal,
): Promise<LlmAnswer> {
  const url = `${endpoint.baseUrl}/chat/completions`;
  const timeout = AbortSignal.timeout(LIMITS.llmTimeoutMs);
  let response: Response;
  try {
    response = await egressFetch(egress, 'the agent LLM endpoint', url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream, application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: endpoint.model, messages: body.messages, tools: body.tools, tool_choice: 'auto', stream: true }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (error instanceof EgressRefusedError) throw new ChatError('llm_unavailable', `The LLM endpoint is not allowed: ${error.message}`);
    const why = timeout.aborted ? `no answer within ${LIMITS.llmTimeoutMs / 1000} s` : describe(error);
    throw new ChatError('llm_unavailable', `The LLM endpoint could not be reached (${why})`);
  }
  if (!response.ok) {
    const text = (await readCapped(response).catch(() => '')).slice(0, 300);
    throw new ChatError('llm_unavailable', `The LLM endpoint answered HTTP ${response.status}${text ? `: ${text}` : ''}`);
  }
  const type = response.headers.get('content-type') ?? '';
  try {
    if (type.includes('text/event-stream')) return await readStream(response, onText);
    const answer = fromCompletion(JSON.parse(await readCapped(response)));
    if (answer.content) onText(answer.content);
    return answer;
  } catch (error) {
    if (error instanceof ChatError) throw error;
    throw new ChatError('llm_bad_response', `The LLM endpoint answered something that is not a chat completion (${describe(error)})`);
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

async function readCapped(response: Response): Promise<string> {
  const text = await response.text();
  if (Buffer.byteLength(text) > LIMITS.llmAnswerBytes) {
    throw new ChatError('llm_bad_response', `The LLM endpoint's answer is larger than ${LIMITS.llmAnswerBytes} bytes`);
  }
  return text;
}

interface Choice {
  message?: { content?: unknown; tool_calls?: unknown };
  delta?: { content?: unknown; tool_calls?: unknown };
}

function fromCompletion(json: unknown): LlmAnswer {
  const choice = (json as { choices?: Choice[] } | null)?.choices?.[0];
  if (!choice?.message) throw new Error('no choices[0].message');
  const { content, tool_calls } = choice.message;
  if (content !== undefined && content !== null && typeof content !== 'string') throw new Error('content is not a string');
  const calls = Array.isArray(tool_calls) ? tool_calls.map(checkCall) : [];
  return { content: (content as string | null) ?? '', toolCalls: calls };
}

function checkCall(raw: unknown): LlmToolCall {
  const call = raw as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
  if (typeof call?.id !== 'string' || typeof call.function?.name !== 'string') throw new Error('a tool call has no id or name');
  const args = typeof call.function.arguments === 'string' ? call.function.arguments : '{}';
  return { id: call.id, type: 'function', function: { name: call.function.name, arguments: args } };
}

/** Server-sent events of chat.completion.chunk objects, until `data: [DONE]` or the end. */
async function readStream(response: Response, onText: (text: string) => void): Promise<LlmAnswer> {
  if (!response.body) throw new Error('an empty stream');
  const decoder = new TextDecoder();
  let buffered = '';
  let bytes = 0;
  let content = '';
  let chunks = 0;
  const calls: { id?: string; name?: string; arguments: string }[] = [];
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    if (bytes > LIMITS.llmAnswerBytes)
      throw new ChatError('llm_bad_response', `The LLM endpoint's answer is larger than ${LIMITS.llmAnswerBytes} bytes`);
    buffered += decoder.decode(chunk, { stream: true });
    const events = buffered.split(/\r?\n/);
    buffered = events.pop()!;
    for (const event of events) {
      if (!event.startsWith('data:')) continue;
      const data = event.slice(5).trim();
      if (data === '[DONE]') return finish(content, calls, chunks);
      const delta = (JSON.parse(data) as { choices?: Choice[] }).choices?.[0]?.delta;
      chunks += 1;
      if (!delta) continue;
      if (typeof delta.content === 'string' && delta.content !== '') {
        content += delta.content;
        onText(delta.content);
      }
      for (const part of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        const { index, id, function: fn } = part as { index?: number; id?: string; function?: { name?: string; arguments?: string } };
        const slot = (calls[index ?? 0] ??= { arguments: '' });
        if (id) slot.id = id;
        if (fn?.name) slot.name = fn.name;
        if (fn?.arguments) slot.arguments += fn.arguments;
      }
    }
  }
  return finish(content, calls, chunks);
}

function finish(content: string, calls: { id?: string; name?: string; arguments: string }[], chunks: number): LlmAnswer {
  if (chunks === 0) throw new Error('no completion chunk');
  return {
    content,
    toolCalls: calls.filter(Boolean).map((c) => checkCall({ id: c.id, function: { name: c.name, arguments: c.arguments } })),
  };
}
