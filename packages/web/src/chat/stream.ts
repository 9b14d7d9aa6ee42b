import { ApiFailure } from '../lib/api';
import type { EmbedSession } from '../session/session';

/** One line of the chat's NDJSON stream (the server's ChatStreamLine, modules/chat README). */
export interface ChatLine {
  id?: string;
  role?: 'user' | 'assistant';
  content?: string;
  toolCall?: { name: string; input: string; result?: string; output?: ToolOutput };
  graphPath?: string[];
  isDelta?: boolean;
  isInProcess?: boolean;
  state?: { chatId?: string | null; isStreaming?: boolean; messages?: ChatLine[] };
  error?: string;
  code?: string;
}

/** What a `cubeQuery` tool call gave back: the rows and how to draw them, or why it was refused. */
export interface ToolOutput {
  error?: string;
  title?: string;
  query?: Record<string, unknown>;
  data?: Record<string, unknown>[];
  totalRows?: number;
  annotation?: Record<string, unknown>;
  chart?: { type: string; x: string | null; y: string[] };
}

export interface ChatRequest {
  input?: string;
  chatId?: string;
  messageId?: string;
}

/** The deployment's chat, as the embed token's deployment names it. */
export const chatUrl = (session: EmbedSession) => `/api/v1/deployments/${session.claims.deploymentId}/chat/stream-chat-state`;

/**
 * Posts a chat request and hands each line to `onLine` as it arrives: the body is read as a
 * stream, so the answer grows on screen while the model writes it. A refusal before the stream
 * starts (400/401/403/404) throws an ApiFailure with the server's message.
 */
export async function streamChat(
  session: EmbedSession,
  request: ChatRequest,
  onLine: (line: ChatLine) => void,
  signal?: AbortSignal,
): Promise<void> {
  const response = await fetch(chatUrl(session), {
    method: 'POST',
    headers: { authorization: session.token, 'content-type': 'application/json' },
    body: JSON.stringify(request),
    credentials: 'omit',
    signal,
  });
  if (!response.ok || !response.body) {
    let message = `HTTP ${response.status}`;
    try {
      const body = (await response.json()) as { message?: string; error?: string };
      message = body.message ?? body.error ?? message;
    } catch {
      // Not JSON: the status says enough.
    }
    throw new ApiFailure(response.status, message);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  const emit = (text: string) => {
    if (text.trim() === '') return;
    try {
      onLine(JSON.parse(text) as ChatLine);
    } catch {
      // A line that is not JSON is not the server's: skipping it keeps the rest of the answer.
    }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += value;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      emit(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  }
  emit(pending);
}

/** Cube's idempotency key of a message: a millisecond timestamp, so a retried post is not asked twice. */
export const newMessageId = () => `${Date.now()}-message`;
