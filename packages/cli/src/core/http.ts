import type { Schema } from '@plinth/api-client';
import { AuthError, HttpError, LOGIN_HINT, messageOf, NetworkError } from './errors.js';
import { authorization, type Target } from './target.js';

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | Array<string>>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send no Authorization header (public endpoints such as the spec and the token endpoint). */
  anonymous?: boolean;
  /** Return 4xx/5xx responses instead of throwing. */
  allowErrors?: boolean;
}

export interface Response<T = unknown> {
  status: number;
  headers: Headers;
  /** The body exactly as received, for `--json` passthrough. */
  text: string;
  /** The parsed body; undefined when empty or not JSON. */
  data: T;
}

export type TokenPair = Schema<'TokenResponse'>;

/**
 * The HTTP client commands use. It sends the target's credential, and when an access token is
 * refused (401) and a refresh token is known, it refreshes once, saves the new pair through
 * `onRefresh` and retries the request.
 */
export class HttpClient {
  constructor(
    readonly target: Target,
    private readonly userAgent: string,
    private readonly onRefresh: (pair: TokenPair) => Promise<void>,
  ) {}

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<Response<T>> {
    let response = await this.send<T>(method, path, options);
    if (response.status === 401 && !options.anonymous && this.target.refreshToken && this.target.scheme === 'bearer') {
      if (await this.refresh()) response = await this.send<T>(method, path, options);
    }
    if (response.status === 401 && !options.anonymous && !this.target.credential && !options.allowErrors) {
      // No credential was sent at all (after `plinth logout`, or nothing configured): say so,
      // rather than echo the server's complaint about a missing header.
      const where = this.target.contextName ? ` (context "${this.target.contextName}")` : '';
      throw new AuthError(`Not logged in to ${this.target.url}${where}`, this.target.authHint ?? LOGIN_HINT);
    }
    if (response.status >= 400 && !options.allowErrors) throw this.errorOf(response);
    return response;
  }

  url(path: string, query?: RequestOptions['query']): string {
    const url = new URL(path.startsWith('/') ? `${this.target.url}${path}` : `${this.target.url}/${path}`);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
    }
    return url.toString();
  }

  errorOf(response: Response): HttpError {
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const hint = response.status === 401 ? this.target.authHint : undefined;
    return new HttpError(response.status, messageOf(response.status, response.data, response.text), response.data, requestId, hint);
  }

  /**
   * A request whose answer is read as it arrives (`logs --follow`, `chat ask`; GET unless `method`
   * says otherwise): the lines of its body, until the server ends it or `signal` aborts, which ends
   * the lines without an error.
   */
  async lines(path: string, options: RequestOptions & { signal: AbortSignal; method?: string }): Promise<AsyncIterable<string>> {
    const open = () =>
      this.open(
        options.method ?? 'GET',
        path,
        { ...options, headers: { accept: 'application/x-ndjson', ...options.headers } },
        options.signal,
      );
    let raw = await open();
    if (raw?.status === 401 && this.target.refreshToken && this.target.scheme === 'bearer') {
      await raw.body?.cancel();
      if (await this.refresh()) raw = await open();
    }
    if (!raw) return linesOf(null, options.signal);
    if (raw.status >= 400) throw this.errorOf(await this.read(raw));
    return linesOf(raw.body, options.signal);
  }

  private async send<T>(method: string, path: string, options: RequestOptions): Promise<Response<T>> {
    return this.read<T>((await this.open(method, path, options))!);
  }

  /** Sends a request; undefined when `signal` aborted it before the answer came. */
  private async open(
    method: string,
    path: string,
    options: RequestOptions,
    signal?: AbortSignal,
  ): Promise<globalThis.Response | undefined> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent, ...options.headers };
    const auth = options.anonymous ? undefined : authorization(this.target);
    if (auth) headers.authorization = auth;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    } else {
      // A content type without a body is refused by the server (an empty JSON body is invalid).
      delete headers['content-type'];
    }
    const url = this.url(path, options.query);
    try {
      return await fetch(url, { method: method.toUpperCase(), headers, body, redirect: 'manual', signal });
    } catch (error) {
      if (signal?.aborted) return undefined;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new NetworkError(
        `Cannot reach ${this.target.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
        'Check the URL of the context (`plinth context show`) and that the server is running.',
      );
    }
  }

  private async read<T>(raw: globalThis.Response): Promise<Response<T>> {
    const text = await raw.text();
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    // The body is whatever the server sent; the caller's T says what it expects there.
    return { status: raw.status, headers: raw.headers, text, data: data as T };
  }

  private async refresh(): Promise<boolean> {
    const response = await this.send<TokenPair>('POST', '/api/v1/auth/token', {
      anonymous: true,
      body: { grant_type: 'refresh_token', refresh_token: this.target.refreshToken },
    });
    if (response.status !== 200 || !response.data?.access_token) {
      const reason = (response.data as { error_description?: string } | undefined)?.error_description;
      throw new AuthError(`Your login has expired${reason ? `: ${reason}` : ''}`, 'Run `plinth login` again.');
    }
    this.target.credential = response.data.access_token;
    this.target.refreshToken = response.data.refresh_token;
    await this.onRefresh(response.data);
    return true;
  }
}

/** The lines of a streamed body as they arrive; an abort ends them quietly, a broken connection is a NetworkError. */
async function* linesOf(body: ReadableStream<Uint8Array> | null, signal: AbortSignal): AsyncGenerator<string> {
  if (!body) return;
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += value;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      yield* lines;
    }
    if (buffered) yield buffered;
  } catch (error) {
    if (signal.aborted) return;
    throw new NetworkError(`The connection to the server broke: ${(error as Error).message}`);
  } finally {
    // A reader that stopped early closes the connection rather than leave the server streaming.
    await reader.cancel().catch(() => {});
  }
}
