import { egressFetch } from '../../egress/fetch.js';
import { EgressRefusedError, type EgressPolicy } from '../../egress/policy.js';
import { ApiError, badRequest } from '../../http/errors.js';

const TIMEOUT_MS = 10_000;

/** The integration as the token endpoint needs it; the secret is opened only for the request. */
export interface ProviderClient {
  /** The provider's endpoints are tenant-chosen URLs: requests go through the egress policy. */
  egress: EgressPolicy;
  tokenUrl: string;
  clientId: string;
  clientSecret: string | null;
  /** `client_secret_basic` (RFC 6749 2.3.1's default) unless the integration's config says `client_secret_post`. */
  authMethod: 'client_secret_basic' | 'client_secret_post';
}

/** A successful answer of a token endpoint (RFC 6749 section 5.1). */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string | null;
  tokenType: string;
  expiresIn: number | null;
  scopes: string[] | null;
}

/** Only http(s): a token endpoint on another scheme (file:, data:) is never fetched. */
export function demandHttpUrl(what: string, value: string): void {
  let protocol: string;
  try {
    protocol = new URL(value).protocol;
  } catch {
    throw badRequest(`${what} is not a URL`);
  }
  if (protocol !== 'https:' && protocol !== 'http:') throw badRequest(`${what} must be an http or https URL, not ${protocol}`);
}

/**
 * Sends a grant to the token endpoint as RFC 6749 says: a form body, the client authenticated with
 * HTTP Basic (or in the body), a JSON answer. A refusal (`{"error": ...}`) is the caller's 400,
 * naming the provider's code; an unreachable or garbled provider is a 502.
 */
export async function requestTokens(client: ProviderClient, grant: Record<string, string>): Promise<IssuedTokens> {
  demandHttpUrl("The integration's tokenUrl", client.tokenUrl);
  const answer = await post(client, client.tokenUrl, grant, 'token endpoint');
  const body = answer.json as Record<string, unknown> | undefined;
  if (answer.status >= 400 && answer.status < 500 && typeof body?.error === 'string') {
    const detail = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
    throw badRequest(`The provider refused the ${grant.grant_type} grant (${body.error}${detail})`);
  }
  if (answer.status !== 200 || !body || typeof body.access_token !== 'string' || body.access_token === '') {
    throw new ApiError('bad_gateway', `The provider's token endpoint answered HTTP ${answer.status} without an access_token`);
  }
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : null,
    tokenType: typeof body.token_type === 'string' ? body.token_type : 'Bearer',
    expiresIn: typeof body.expires_in === 'number' && body.expires_in > 0 ? Math.floor(body.expires_in) : null,
    scopes: typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : null,
  };
}

/**
 * RFC 7009: asks the provider to revoke a token. Any 2xx or 4xx answer means the provider holds
 * no usable token any more (section 2.2: invalid tokens answer 200; a 4xx is a token it rejects);
 * only an unreachable provider or a 5xx fails, so the user can retry while the token is still kept.
 */
export async function revokeAtProvider(client: ProviderClient, url: string, token: string, hint: 'access_token' | 'refresh_token') {
  demandHttpUrl("The integration's revocation URL", url);
  const answer = await post(client, url, { token, token_type_hint: hint }, 'revocation endpoint');
  if (answer.status >= 500)
    throw new ApiError('bad_gateway', `The provider's revocation endpoint answered HTTP ${answer.status}; try again`);
}

async function post(client: ProviderClient, url: string, params: Record<string, string>, what: string) {
  const form = new URLSearchParams(params);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (client.clientSecret !== null && client.authMethod === 'client_secret_basic') {
    // RFC 6749 2.3.1: both parts form-encoded before base64.
    const pair = `${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    form.set('client_id', client.clientId);
    if (client.clientSecret !== null) form.set('client_secret', client.clientSecret);
  }
  let response: Response;
  try {
    const init = { method: 'POST', headers, body: form, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) } as const;
    response = await egressFetch(client.egress, `The provider's ${what}`, url, init);
  } catch (error) {
    if (error instanceof EgressRefusedError) throw badRequest(error.message);
    const reason = error instanceof Error ? error.message : String(error);
    throw new ApiError('bad_gateway', `The provider's ${what} could not be reached: ${reason}`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json };
}

const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
