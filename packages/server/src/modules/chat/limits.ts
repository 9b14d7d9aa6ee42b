/**
 * The chat's bounds, each refused or cut with a message that names it: what a question, a thread,
 * a turn and an answer may hold, and how long the LLM may take.
 */
export const LIMITS = {
  /** Characters of one question (the schema refuses more). */
  inputChars: 4000,
  /** Messages a thread keeps; a question past it is refused (start a new thread). */
  threadMessages: 200,
  /** Rounds of tool calls in one turn before the runtime gives up. */
  toolRounds: 6,
  /** Rows a query returns to the UI (and to the model); a larger `limit` is lowered. */
  rows: 100,
  /** Characters of one tool result given back to the model. */
  toolResultChars: 20_000,
  /** Bytes of one LLM answer read before it is refused. */
  llmAnswerBytes: 2 * 1024 * 1024,
  /** How long one LLM call may take. */
  llmTimeoutMs: 60_000,
  /** A turn still marked streaming after this long is taken as abandoned (its process died). */
  turnMs: 10 * 60_000,
  /** Threads a list gives, newest first. */
  listedThreads: 100,
} as const;

/** The chart types a tool call may ask for: the report model's. */
export const CHART_TYPES = ['line', 'bar', 'area', 'pie', 'table', 'number'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/**
 * The codes of an error line (`{"error": message, "code": …}`), for the UI to tell the states apart:
 * - chat_not_configured: no agent of the deployment may be used by embedded users, or its agent has no LLM endpoint;
 * - llm_unavailable: the LLM endpoint could not be reached, refused it (egress policy) or answered an HTTP error;
 * - llm_bad_response: the endpoint answered something that is not an OpenAI chat completion;
 * - tool_rounds_exceeded: the model kept calling tools past the bound;
 * - thread_busy: another message of the thread is still streaming;
 * - thread_full: the thread holds the most messages it may;
 * - internal_error: anything else (logged with the request id).
 */
export const CHAT_ERROR_CODES = [
  'chat_not_configured',
  'llm_unavailable',
  'llm_bad_response',
  'tool_rounds_exceeded',
  'thread_busy',
  'thread_full',
  'internal_error',
] as const;
export type ChatErrorCode = (typeof CHAT_ERROR_CODES)[number];

/** An error the turn ends with, streamed as an error line rather than an HTTP status (the stream has begun). */
export class ChatError extends Error {
  constructor(
    readonly code: ChatErrorCode,
    message: string,
  ) {
    super(message);
  }
}
