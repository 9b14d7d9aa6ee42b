import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackMessage {
  channel: string;
  text: string;
  ts: string;
}

export interface SlackFile {
  id: string;
  filename: string;
  title: string | undefined;
  /** The channel completeUploadExternal shared it in; undefined while the upload is not completed. */
  channel: string | undefined;
  bytes: Buffer;
}

/** How the next calls fail: an HTTP status (429 with Retry-After, 500, 503) or Slack's `{ok: false, error}`. */
export type SlackFailure = { status: number } | { error: string };

export interface SlackStandIn {
  /** The Web API's base (`http://127.0.0.1:<port>/api`), for PLINTH_SLACK_API_URL. */
  url: string;
  /** The bot token it accepts (`xoxb-…`). */
  token: string;
  messages: SlackMessage[];
  /** Every file whose bytes were uploaded, completed or not. */
  files: SlackFile[];
  /** Channels it knows: any other is `channel_not_found`. */
  channels: Set<string>;
  /** The next `count` API calls (uploads included) fail so. */
  failNext(count: number, failure: SlackFailure): void;
  close(): Promise<void>;
}

/**
 * A local server speaking the part of Slack's Web API that delivery uses: chat.postMessage,
 * files.getUploadURLExternal, the upload to the URL it answers, and files.completeUploadExternal.
 * It checks the bearer token as Slack does (`not_authed`, `invalid_auth`), takes JSON or form
 * bodies, and answers 200 with `{ok: false, error}` for refusals, as Slack does.
 */
export async function startSlackStandIn(options: { channels?: string[] } = {}): Promise<SlackStandIn> {
  const token = `xoxb-${randomBytes(12).toString('hex')}`;
  const messages: SlackMessage[] = [];
  const files: SlackFile[] = [];
  const channels = new Set(options.channels ?? ['C0TEST']);
  const failures: SlackFailure[] = [];
  let clock = 1_700_000_000;

  const api: Record<string, (params: Record<string, string>) => Record<string, unknown>> = {
    'chat.postMessage': (params) => {
      if (!channels.has(params.channel ?? '')) return { ok: false, error: 'channel_not_found' };
      if (!params.text) return { ok: false, error: 'no_text' };
      const ts = `${clock++}.000100`;
      messages.push({ channel: params.channel!, text: params.text, ts });
      return { ok: true, channel: params.channel, ts, message: { text: params.text, ts } };
    },
    'files.getUploadURLExternal': (params) => {
      const length = Number(params.length);
      if (!params.filename || !Number.isInteger(length) || length < 1) return { ok: false, error: 'invalid_arguments' };
      const id = `F${randomBytes(5).toString('hex').toUpperCase()}`;
      files.push({ id, filename: params.filename, title: undefined, channel: undefined, bytes: Buffer.alloc(0) });
      return { ok: true, upload_url: `${base}/upload/${id}`, file_id: id };
    },
    'files.completeUploadExternal': (params) => {
      let listed: { id: string; title?: string }[];
      try {
        listed = JSON.parse(params.files ?? '');
      } catch {
        return { ok: false, error: 'invalid_arguments' };
      }
      if (params.channel_id && !channels.has(params.channel_id)) return { ok: false, error: 'channel_not_found' };
      const found = listed.map((entry) => files.find((f) => f.id === entry.id && f.bytes.length > 0));
      if (found.some((f) => !f)) return { ok: false, error: 'file_not_found' };
      found.forEach((file, i) => Object.assign(file!, { title: listed[i]!.title, channel: params.channel_id }));
      return { ok: true, files: found.map((f) => ({ id: f!.id, title: f!.title })) };
    },
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(req, res, Buffer.concat(chunks)));
  });

  function answer(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const failure = failures.shift();
    if (failure && 'status' in failure) {
      res.writeHead(failure.status, failure.status === 429 ? { 'retry-after': '1' } : {}).end();
      return;
    }
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    const upload = /^\/upload\/(F[0-9A-F]+)$/.exec(path);
    if (upload) {
      const file = files.find((f) => f.id === upload[1]);
      if (!file) return void res.writeHead(404).end();
      file.bytes = body;
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${body.length}`);
      return;
    }
    const method = /^\/api\/([a-zA-Z.]+)$/.exec(path)?.[1];
    const json = (value: unknown): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (!method || !api[method]) return json({ ok: false, error: 'unknown_method' });
    const authorization = req.headers.authorization;
    if (!authorization) return json({ ok: false, error: 'not_authed' });
    if (authorization !== `Bearer ${token}`) return json({ ok: false, error: 'invalid_auth' });
    if (failure && 'error' in failure) return json({ ok: false, error: failure.error });
    json(api[method](params(req, body)));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/api`,
    token,
    messages,
    files,
    channels,
    failNext: (count, failure) => failures.push(...Array.from({ length: count }, () => failure)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Slack's methods take a JSON body or a form (url-encoded), and simple ones a query string too. */
function params(req: IncomingMessage, body: Buffer): Record<string, string> {
  const query = Object.fromEntries(new URL(req.url ?? '/', 'http://stand-in').searchParams);
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) {
    const parsed = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
    return { ...query, ...Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])) };
  }
  return { ...query, ...Object.fromEntries(new URLSearchParams(body.toString('utf8'))) };
}
