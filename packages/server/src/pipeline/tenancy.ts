import { ApiError, forbidden, notFound } from '../http/errors.js';
import type { AccountRow } from '../store/schema.js';
import { UNKNOWN_HOST, type HostLookup } from '../modules/accounts/service.js';

/** `<id>` or `<slug>-<id>`: the id (a positive 32-bit integer) decides, whatever the slug says. */
const LABEL = /^(?:[a-z0-9-]*-)?([1-9][0-9]{0,9})$/;
const MAX_ID = 2_147_483_647;
/** Deployments move between accounts never and are deleted rarely: a deployment host's account is kept a while. */
const DEPLOYMENT_CACHE_MS = 30_000;

/** An account, or the refusal to send instead (unknown host, no such account, disabled). */
export type TenantDecision = AccountRow | ApiError;

/** What tenancy reads of the accounts and deployments modules. */
export interface TenantSources {
  cachedHost(host: string): HostLookup | undefined;
  resolveHost(host: string): Promise<HostLookup>;
  accountOfDeployment(deploymentId: number): Promise<AccountRow | undefined>;
}

/**
 * The deployment a Host names, `<slug>-<id>.<PLINTH_BASE_DOMAIN>`; undefined for any other host
 * (account hosts included). A label of that form is a deployment's even when an account bears the
 * same name: the decision is made before any lookup.
 */
export function deploymentOfHost(baseDomain: string | undefined, host: string | undefined): number | undefined {
  if (!baseDomain || !host) return undefined;
  const hostname = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const base = baseDomain.replace(/:\d+$/, '');
  if (!hostname.endsWith(`.${base}`)) return undefined;
  const match = LABEL.exec(hostname.slice(0, -(base.length + 1)));
  const id = match ? Number(match[1]) : NaN;
  return id <= MAX_ID ? id : undefined;
}

/**
 * Which account a request acts in (DESIGN.md, Tenancy), from its Host or its deployment host, for
 * any listener: HTTP routes, the cached answers in front of them, static pages. A connection
 * without a Host (the SQL listener) names its account itself and asks `enabled`.
 */
export class Tenancy {
  private readonly deploymentHosts = new Map<number, { account: AccountRow | undefined; at: number }>();

  constructor(
    private readonly sources: TenantSources,
    private readonly baseDomain: string | undefined,
  ) {}

  /** The Host's account; synchronous when the host was resolved lately (almost every request). */
  ofHost(host: string): TenantDecision | Promise<TenantDecision> {
    const cached = this.sources.cachedHost(host);
    if (cached !== undefined) return this.decide(host, cached);
    return this.sources.resolveHost(host).then((found) => this.decide(host, found));
  }

  /** The Host's account if it is at hand without a lookup, else undefined (a cached answer then declines). */
  ofHostAtHand(host: string): TenantDecision | undefined {
    const cached = this.sources.cachedHost(host);
    return cached === undefined ? undefined : this.decide(host, cached);
  }

  /** The account of a deployment host's deployment: refused alike whether the deployment is gone or its account disabled. */
  async ofDeployment(deploymentId: number, host: string): Promise<TenantDecision> {
    const cached = this.deploymentHosts.get(deploymentId);
    let account: AccountRow | undefined;
    if (cached && Date.now() - cached.at < DEPLOYMENT_CACHE_MS) account = cached.account;
    else {
      account = await this.sources.accountOfDeployment(deploymentId);
      if (this.deploymentHosts.size > 10_000) this.deploymentHosts.clear();
      this.deploymentHosts.set(deploymentId, { account, at: Date.now() });
    }
    if (!account) return notFound(`No deployment is served at ${host}`);
    return enabled(account);
  }

  /** The deployment a request's Host names, if it is a deployment host. */
  deploymentOf(host: string | undefined): number | undefined {
    return deploymentOfHost(this.baseDomain, host);
  }

  private decide(host: string, found: HostLookup): TenantDecision {
    if (found === UNKNOWN_HOST) {
      return new ApiError('misdirected_request', `Unknown host "${host}": accounts are served at <account>.${this.baseDomain}`);
    }
    if (!found) return notFound(`No account is served at ${host}`);
    return enabled(found);
  }
}

/** An account an operator has disabled is refused, whichever way the request reached it. */
export function enabled(account: AccountRow): TenantDecision {
  return account.disabled_at ? forbidden(`The account "${account.name}" has been disabled by an operator`) : account;
}
