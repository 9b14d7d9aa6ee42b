import type { AddressInfo } from 'node:net';
import type { Config } from '../../config.js';
import type { AccountRow } from '../../store/schema.js';
import { RenderError } from './errors.js';

/**
 * Where the renderer's browser reaches this server: PLINTH_RENDER_URL, else the address this
 * process listens on (a wildcard listener is reached on loopback).
 */
export function renderOrigin(config: Config, listening: AddressInfo | string | null | undefined): URL {
  if (config.delivery.renderUrl) return new URL(config.delivery.renderUrl);
  if (!listening || typeof listening === 'string') {
    throw new RenderError(
      'This process serves no HTTP, so rendering needs PLINTH_RENDER_URL: the address of a server of this installation',
      false,
    );
  }
  const wildcard = listening.address === '0.0.0.0' || listening.address === '::';
  const host = wildcard ? (listening.family === 'IPv6' ? '::1' : '127.0.0.1') : listening.address;
  return new URL(`http://${host.includes(':') ? `[${host}]` : host}:${listening.port}`);
}

/**
 * The host that names the account, as a viewer's browser would send it (tenancy reads the Host):
 * `{name}.{PLINTH_BASE_DOMAIN}`, its custom domain, or for the default account any host.
 */
export function accountHost(config: Config, account: AccountRow, origin: URL): string {
  const base = config.baseDomain?.replace(/:\d+$/, '');
  if (base) return `${account.name}.${base}`;
  if (account.custom_domain) return account.custom_domain;
  if (account.name === config.defaultTenant) return origin.hostname;
  throw new RenderError(`Account ${account.name} has no host of its own to render on: set PLINTH_BASE_DOMAIN or its custom domain`, false);
}

/** The account's origin on `origin`'s scheme and port: the page's address for the browser, and for the link the public one. */
export function onHost(origin: URL, host: string): string {
  return `${origin.protocol}//${host}${origin.port ? `:${origin.port}` : ''}`;
}
