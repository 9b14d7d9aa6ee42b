import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CLIENT_ID = 'client-123';
export const CLIENT_SECRET = 'very-secret-value';

export interface ProviderRequest {
  path: string;
  contentType: string | undefined;
  authorization: string | undefined;
  form: Record<string, string>;
}

/**
 * A local OAuth 2.0 provider speaking the real protocol (RFC 6749 token endpoint with form bodies
 * and JSON answers, HTTP Basic client authentication, PKCE, rotating refresh tokens; RFC 7009
 * revocation), for tests. `/broken` answers 500 with HTML, as a failing provider might.
 */
export interface StandInProvider {
  url: string;
  tokenUrl: string;
  revocationUrl: string;
  requests: ProviderRequest[];
  /** Tokens revoked through the revocation endpoint. */
  revoked: string[];
  /** Access tokens currently valid. */
  liveAccessTokens: Set<string>;
  /** A one-time authorization code; with a verifier, the grant must present it (PKCE). */
  issueCode(options?: { verifier?: string; refresh?: boolean }): string;
  close(): Promise<void>;
}

let shared: Promise<StandInProvider> | undefined;

/** One provider for a whole test file (started on first use, never keeps the process alive). */
export function sharedStandInProvider(): Promise<StandInProvider> {
  shared ??= startStandInProvider();
  return shared;
}

export async function startStandInProvider(): Promise<StandInProvider> {
  const codes = new Map<string, { verifier?: string; refresh: boolean }>();
  const refreshTokens = new Set<string>();
  const liveAccessTokens = new Set<string>();
  const requests: ProviderRequest[] = [];
  const revoked: string[] = [];
  const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const form = Object.fromEntries(new URLSearchParams(await bodyOf(request)));
    const path = request.url ?? '';
    requests.push({ path, contentType: request.headers['content-type'], authorization: request.headers.authorization, form });
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    if (path === '/broken') return response.writeHead(500, { 'content-type': 'text/html' }).end('<h1>down</h1>');
    if (request.method !== 'POST' || request.headers['content-type'] !== 'application/x-www-form-urlencoded') {
      return json(400, { error: 'invalid_request', error_description: 'POST a form' });
    }
    if (!clientAuthenticated(request, form)) return json(401, { error: 'invalid_client' });
    if (path === '/revoke') {
      revoked.push(form.token ?? '');
      liveAccessTokens.delete(form.token ?? '');
      refreshTokens.delete(form.token ?? '');
      return response.writeHead(200).end();
    }
    if (path !== '/token') return json(404, { error: 'not_found' });
    let refresh = true;
    if (form.grant_type === 'authorization_code') {
      const code = codes.get(form.code ?? '');
      codes.delete(form.code ?? '');
      if (!code) return json(400, { error: 'invalid_grant', error_description: 'unknown or used code' });
      if (!form.redirect_uri) return json(400, { error: 'invalid_request', error_description: 'redirect_uri missing' });
      if (code.verifier !== undefined && form.code_verifier !== code.verifier) {
        return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      }
      refresh = code.refresh;
    } else if (form.grant_type === 'refresh_token') {
      if (!refreshTokens.delete(form.refresh_token ?? ''))
        return json(400, { error: 'invalid_grant', error_description: 'unknown refresh token' });
    } else {
      return json(400, { error: 'unsupported_grant_type' });
    }
    const access = token('at');
    liveAccessTokens.add(access);
    const answer: Record<string, unknown> = { access_token: access, token_type: 'Bearer', expires_in: 3600, scope: 'read write' };
    if (refresh) {
      answer.refresh_token = token('rt');
      refreshTokens.add(answer.refresh_token as string);
    }
    json(200, answer);
  };
  const server: Server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    tokenUrl: `${url}/token`,
    revocationUrl: `${url}/revoke`,
    requests,
    revoked,
    liveAccessTokens,
    issueCode(options = {}) {
      const code = token('code');
      codes.set(code, { verifier: options.verifier, refresh: options.refresh ?? true });
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** RFC 6749 2.3.1: HTTP Basic with form-encoded parts, or the credentials in the body. */
function clientAuthenticated(request: IncomingMessage, form: Record<string, string>): boolean {
  const header = request.headers.authorization;
  if (header?.startsWith('Basic ')) {
    const [id, secret] = Buffer.from(header.slice(6), 'base64')
      .toString()
      .split(':')
      .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
    return id === CLIENT_ID && secret === CLIENT_SECRET;
  }
  return form.client_id === CLIENT_ID && form.client_secret === CLIENT_SECRET;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}
