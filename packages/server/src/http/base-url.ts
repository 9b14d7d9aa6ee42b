import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { AccountRow } from '../store/schema.js';

/**
 * `{base_url}` of an account, from configuration only: links the server hands out (deployment
 * URLs, the device flow's verification page, invite links, SCIM locations) must never carry a
 * Host header the caller chose. A custom domain or `{tenant}.{PLINTH_BASE_DOMAIN}` names the
 * account's host, in the scheme of PLINTH_PUBLIC_URL; without a base domain the account is at
 * PLINTH_PUBLIC_URL, else at the address the server listens on.
 */
export function accountBaseUrl(config: Config, account: Pick<AccountRow, 'name' | 'custom_domain'>, listening?: string): string {
  const publicUrl = config.publicUrl ? new URL(config.publicUrl) : undefined;
  const scheme = publicUrl?.protocol ?? 'http:';
  if (account.custom_domain) return `${scheme}//${account.custom_domain}`;
  if (config.baseDomain) {
    const port = config.baseDomain.includes(':') || !publicUrl?.port ? '' : `:${publicUrl.port}`;
    return `${scheme}//${account.name}.${config.baseDomain}${port}`;
  }
  return config.publicUrl ?? listening ?? `http://${hostForUrl(config.host)}:${config.port}`;
}

/** `{base_url}` of the request's account. */
export function baseUrlOf(request: FastifyRequest): string {
  return accountBaseUrl(request.server.config, request.account, listeningUrl(request));
}

/** The address the server is bound to (its real port when it listens on port 0). */
function listeningUrl(request: FastifyRequest): string | undefined {
  const address = request.server.server.address();
  if (!address || typeof address === 'string') return undefined;
  return `http://${hostForUrl(address.address)}:${address.port}`;
}

function hostForUrl(host: string): string {
  // A wildcard bind is reachable on this machine at least; PLINTH_PUBLIC_URL names it for others.
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
