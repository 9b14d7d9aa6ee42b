import { randomUUID } from 'node:crypto';
import type { EgressPolicy } from '../../egress/policy.js';
import type { Services } from '../module.js';
import type { ChatCaller } from './caller.js';
import { ChatError, LIMITS } from './limits.js';
import { complete, type LlmEndpoint, type LlmMessage } from './llm.js';
import { runMeta, runQuery, TOOLS, viewsFor, type ToolView } from './tools.js';

export type Line = Record<string, unknown>;

/** What a turn is given: who asks, the agent's endpoint and views, the thread so far and where lines go. */
export interface Turn {
  caller: ChatCaller;
  llm: LlmEndpoint;
  accessibleViews: readonly string[];
  /** The stored lines of the thread before this question. */
  history: Line[];
  input: string;
  /** The sort the next line gets. */
  sort: number;
  /** Sends a line to the client; `store` also keeps it in the thread. */
  emit: (line: Line, store: boolean) => Promise<void>;
  signal?: AbortSignal;
}

const AGENT = ['cube_data_analyst_agent'];
const TOOL_PATH = ['cube_data_analyst_agent', 'tools'];

/**
 * One question: the agent's LLM is asked with the user's views as context and tools; each tool
 * call runs as the user (tools.ts) and its result goes back to the model, until it answers with
 * text or the rounds run out. Deltas of text are streamed as they arrive; tool calls, their
 * results and the final answer are also kept in the thread.
 */
export async function runTurn(services: Pick<Services, 'dataApi'>, egress: EgressPolicy, turn: Turn): Promise<void> {
  const views = await viewsFor(services, turn.caller, turn.accessibleViews);
  const messages: LlmMessage[] = [
    { role: 'system', content: systemPrompt(views) },
    ...historyMessages(turn.history),
    { role: 'user', content: turn.input },
  ];
  let sort = turn.sort;
  for (let round = 0; round < LIMITS.toolRounds; round++) {
    const id = randomUUID();
    const answerSort = sort++;
    const answer = await complete(
      egress,
      turn.llm,
      { messages, tools: TOOLS },
      (text) =>
        void turn.emit(
          { id, role: 'assistant', content: text, graphPath: AGENT, isDelta: true, isInProcess: true, sort: answerSort },
          false,
        ),
      turn.signal,
    );
    if (answer.toolCalls.length === 0) {
      await turn.emit(
        { id, role: 'assistant', content: answer.content, graphPath: ['final'], isDelta: false, isInProcess: false, sort: answerSort },
        true,
      );
      return;
    }
    messages.push({ role: 'assistant', content: answer.content || null, tool_calls: answer.toolCalls });
    for (const call of answer.toolCalls) {
      const callSort = sort++;
      const toolCall = { name: call.function.name, input: call.function.arguments };
      await turn.emit(
        { id: call.id, role: 'assistant', toolCall, graphPath: TOOL_PATH, isDelta: false, isInProcess: true, sort: callSort },
        false,
      );
      const output = await runTool(services, turn.caller, views, call.function.name, call.function.arguments);
      const result = JSON.stringify(output);
      await turn.emit(
        {
          id: call.id,
          role: 'assistant',
          toolCall: { ...toolCall, result, output },
          graphPath: TOOL_PATH,
          isDelta: false,
          isInProcess: false,
          sort: callSort,
        },
        true,
      );
      messages.push({ role: 'tool', tool_call_id: call.id, content: forModel(result) });
    }
  }
  throw new ChatError(
    'tool_rounds_exceeded',
    `The agent called tools ${LIMITS.toolRounds} times without answering; ask a narrower question`,
  );
}

async function runTool(services: Pick<Services, 'dataApi'>, caller: ChatCaller, views: ToolView[], name: string, raw: string) {
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw || '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: 'The arguments must be a JSON object' };
    args = parsed as Record<string, unknown>;
  } catch {
    return { error: 'The arguments are not JSON' };
  }
  if (name === 'cubeMeta') return runMeta(views, args);
  if (name === 'cubeQuery') return runQuery(services, caller, views, args);
  return { error: `Unknown tool ${name}: use cubeMeta or cubeQuery` };
}

const forModel = (result: string) =>
  result.length <= LIMITS.toolResultChars
    ? result
    : `${result.slice(0, LIMITS.toolResultChars)}… (cut at ${LIMITS.toolResultChars} characters)`;

function systemPrompt(views: ToolView[]): string {
  const listed = views
    .map(
      (v) =>
        `- ${v.name} (${v.title})${v.description ? `: ${v.description}` : ''}\n  ${v.members.map((m) => `${m.name} [${m.kind}, ${m.type}]`).join(', ')}`,
    )
    .join('\n');
  return [
    'You are a data analyst answering questions about the data of the views below, for the person asking.',
    'Use the cubeQuery tool to get numbers (never invent them); members are named <view>.<member>. Use cubeMeta to look members up.',
    'Answer briefly, in the language of the question, from the rows the tools return.',
    views.length > 0 ? `Views you may query:\n${listed}` : 'There are no views you may query: say so.',
  ].join('\n');
}

/** The thread so far, as Chat Completions messages: questions, tool calls with their results, answers. */
export function historyMessages(lines: Line[]): LlmMessage[] {
  const messages: LlmMessage[] = [];
  for (const line of lines) {
    const toolCall = line.toolCall as { name: string; input: string; result?: string } | undefined;
    if (line.role === 'user' && typeof line.content === 'string') messages.push({ role: 'user', content: line.content });
    else if (toolCall) {
      const id = String(line.id);
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [{ id, type: 'function', function: { name: toolCall.name, arguments: toolCall.input } }],
      });
      messages.push({ role: 'tool', tool_call_id: id, content: forModel(toolCall.result ?? '{}') });
    } else if (line.role === 'assistant' && typeof line.content === 'string') messages.push({ role: 'assistant', content: line.content });
  }
  return messages;
}
