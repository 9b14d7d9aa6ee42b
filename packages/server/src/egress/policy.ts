import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { internalKind, plainAddress } from './addresses.js';
import { AllowList, type EgressSettings } from './settings.js';

/** A tenant-chosen URL, host or path the server will not reach; the message is for the tenant. */
export class EgressRefusedError extends Error {
  override name = 'EgressRefusedError';
}

export interface CheckOptions {
  /**
   * A name that does not resolve now: refused when about to connect; accepted when a tenant saves
   * the URL (the server's resolver may not see the tenant's names yet), and checked again on use.
   */
  unresolved?: 'accept' | 'refuse';
}

const OPERATOR_HINT = "The server's operator can allow it with PLINTH_EGRESS_ALLOW.";

/**
 * The one egress policy for every URL or path a tenant configures (git remotes, dbt repositories,
 * OIDC issuers and key sets, OAuth token endpoints, LLM endpoints): loopback, link-local, private,
 * unique-local and this server's own addresses are refused unless the operator allowed the host
 * or the address. Names are checked after resolution, and callers connect to the very addresses
 * checked (see `guardedDispatcher` and the git pins), so a name that changes its answer between
 * the check and the connection (DNS rebinding) reaches nothing it was refused.
 */
export class EgressPolicy {
  private readonly allowList: AllowList;

  constructor(readonly settings: EgressSettings) {
    this.allowList = new AllowList(settings.allow);
  }

  /**
   * The addresses of `host` a connection may use: all of them, when each is public or allowed.
   * One internal address among them refuses the host, since the resolver may hand out any.
   */
  async addressesOf(host: string, what: string, { unresolved = 'refuse' }: CheckOptions = {}): Promise<string[]> {
    const name = plainAddress(host);
    const allowedHost = this.allowList.allowsHost(name);
    if (isIP(name) !== 0) {
      if (!allowedHost) this.refuseAddress(name, name, what);
      return [name];
    }
    let addresses: string[];
    try {
      addresses = (await lookup(name, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch (error) {
      if (unresolved === 'accept') return [];
      const code = (error as NodeJS.ErrnoException).code ?? 'no answer';
      throw new EgressRefusedError(`${what} cannot be reached: the host ${name} does not resolve (${code})`);
    }
    if (!allowedHost) for (const address of addresses) this.refuseAddress(name, address, what);
    return addresses;
  }

  /** An http(s) URL a tenant gave, checked as far as its host resolves; anything else is refused by name. */
  async checkUrl(raw: string | URL, what: string, options: CheckOptions = {}): Promise<URL> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new EgressRefusedError(`${what} "${String(raw)}" is not a URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new EgressRefusedError(`${what} must be an http or https URL, not ${url.protocol.slice(0, -1)}`);
    }
    await this.addressesOf(url.hostname, `${what} ${url.origin}`, options);
    return url;
  }

  private refuseAddress(host: string, address: string, what: string): void {
    if (this.allowList.allowsAddress(address)) return;
    const kind = internalKind(address);
    if (kind === null) return;
    const where = host === plainAddress(address) ? `${address} is ${kind}` : `${host} resolves to ${address}, ${kind}`;
    throw new EgressRefusedError(`${what} is refused: ${where}. ${OPERATOR_HINT}`);
  }
}
