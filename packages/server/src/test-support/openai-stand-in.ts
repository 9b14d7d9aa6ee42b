import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the stand-in. */
export type ScriptedAnswer =
  /** The assistant answers with text; after `hold` settles, when given (a turn kept streaming). */
  | { text: string; hold?: Promise<unknown> }
  /** The assistant calls tools (arguments as an object or as the raw string the model would send), maybe with some text. */
  | { toolCalls: { name: string; arguments: unknown; id?: string }[]; text?: string; hold?: Promise<unknown> }
  /** An HTTP error, or any body (garbage) with a status and type. */
  | { status: number; body: string; contentType?: string };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface OpenAiStandIn {
  /** The base URL an agent LLM endpoint names (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Appends answers, given in order to the next requests; an empty script answers 500. */
  script(...answers: (ScriptedAnswer | ((request: RecordedRequest) => ScriptedAnswer))[]): void;
  close(): Promise<void>;
}

/**
 * A local OpenAI-compatible endpoint speaking POST /v1/chat/completions: a streamed request
 * (`stream: true`) is answered in server-sent chat.completion.chunk events, text and tool-call
 * arguments each split over chunks as real endpoints do, unless `sse: false`, when it answers
 * one JSON completion as endpoints without streaming do.
 */
export async function startOpenAiStandIn(options: { sse?: boolean } = {}): Promise<OpenAiStandIn> {
  const queue: (ScriptedAnswer | ((request: RecordedRequest) => ScriptedAnswer))[] = [];
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const recorded = { path: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions' || !body) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const next = queue.shift();
      const answer = typeof next === 'function' ? next(recorded) : next;
      if (!answer) return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"script exhausted"}}');
      if ('status' in answer)
        return void res.writeHead(answer.status, { 'content-type': answer.contentType ?? 'text/plain' }).end(answer.body);
      if (answer.hold) return void answer.hold.then(() => respond(res, body, answer, requests.length, options));
      respond(res, body, answer, requests.length, options);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...answers) => void queue.push(...answers),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A scripted completion: server-sent chunks for a streamed request, else one JSON completion. */
function respond(
  res: ServerResponse,
  body: any,
  answer: Exclude<ScriptedAnswer, { status: number }>,
  n: number,
  options: { sse?: boolean },
): void {
  const text = 'text' in answer ? (answer.text ?? '') : '';
  const calls = ('toolCalls' in answer ? answer.toolCalls : []).map((call, index) => ({
    index,
    id: call.id ?? `call_${n}_${index}`,
    type: 'function',
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }));
  if (body.stream && options.sse !== false) return void sendEvents(res, body.model, text, calls);
  res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      id: `chatcmpl-${n}`,
      object: 'chat.completion',
      model: body.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text || null,
            ...(calls.length ? { tool_calls: calls.map(({ index: _i, ...c }) => c) } : {}),
          },
          finish_reason: calls.length ? 'tool_calls' : 'stop',
        },
      ],
    }),
  );
}

type Call = { index: number; id: string; type: string; function: { name: string; arguments: string } };

function sendEvents(res: ServerResponse, model: string, text: string, calls: Call[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ id: 'chatcmpl-stand-in', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  const half = Math.ceil(text.length / 2);
  if (text) for (const piece of [text.slice(0, half), text.slice(half)].filter(Boolean)) chunk({ content: piece });
  for (const call of calls) {
    const args = call.function.arguments;
    const cut = Math.ceil(args.length / 2);
    chunk({
      tool_calls: [
        { index: call.index, id: call.id, type: 'function', function: { name: call.function.name, arguments: args.slice(0, cut) } },
      ],
    });
    chunk({ tool_calls: [{ index: call.index, function: { arguments: args.slice(cut) } }] });
  }
  chunk({}, calls.length ? 'tool_calls' : 'stop');
  res.end('data: [DONE]\n\n');
}
