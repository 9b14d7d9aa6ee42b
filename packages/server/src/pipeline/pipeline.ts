import { ApiError } from '../http/errors.js';
import type { CredentialKind } from '../http/principal.js';
import type { Check, OperationInput } from '../http/requirement.js';
import type { AccountRow } from '../store/schema.js';
import { API_RESPONSE, newRequestId, type AuthenticatedContext, type RequestContext, type ResponsePolicy } from './context.js';
import { Credentials } from './credentials.js';
import { ResponseCache } from './response-cache.js';
import { accessEntry, responseHeaders, type AccessLog } from './response-policy.js';
import { enabled, Tenancy, type TenantSources } from './tenancy.js';

/** What a listener knows of a request before the pipeline decides it. */
export interface Arrival {
  host: string;
  /** The Authorization header as sent; absent for a public operation. */
  authorization?: string;
  policy?: ResponsePolicy;
  requestId?: string;
}

/** What an operation declares about its callers, as the pipeline admits them. */
export interface Admitted {
  kinds: readonly CredentialKind[];
  check: Check;
  input?: OperationInput;
}

const NO_INPUT: OperationInput = Object.freeze({});

/**
 * The request pipeline, independent of what carries a request: tenancy (which account), admission
 * (which principal, and may it), the response policy (request id, security headers, access line)
 * and the response-cache stage. Fastify's hooks (http/) adapt it to routes; the web package's
 * static pages and the SQL listener call it as they are.
 */
export class RequestPipeline {
  readonly credentials = new Credentials();
  readonly tenancy: Tenancy;
  readonly responses: ResponseCache;

  constructor(
    sources: TenantSources,
    baseDomain: string | undefined,
    private readonly log: AccessLog | false | undefined,
  ) {
    this.tenancy = new Tenancy(sources, baseDomain);
    this.responses = new ResponseCache(this.tenancy, this.credentials);
  }

  /**
   * The context of a request from its Host and Authorization header: its tenant, and its principal
   * when the operation requires one (`admitted`); throws the refusal the caller is to send.
   */
  contextOf(arrival: Arrival, admitted: Admitted): Promise<AuthenticatedContext>;
  contextOf(arrival: Arrival): Promise<RequestContext>;
  async contextOf(arrival: Arrival, admitted?: Admitted): Promise<RequestContext> {
    const decided = await this.tenancy.ofHost(arrival.host);
    if (decided instanceof ApiError) throw decided;
    const principal = admitted
      ? await this.credentials.admit(decided, arrival.authorization, admitted.kinds, admitted.check, admitted.input ?? NO_INPUT)
      : null;
    return { requestId: arrival.requestId ?? newRequestId(), tenant: decided, principal, policy: arrival.policy ?? API_RESPONSE };
  }

  /**
   * The context of a connection with no Host: it names its account (the SQL listener's database
   * or user name) and presents a credential's text (its password).
   */
  async contextOfConnection(account: AccountRow, credential: string, kinds: readonly CredentialKind[]): Promise<AuthenticatedContext> {
    const decided = enabled(account);
    if (decided instanceof ApiError) throw decided;
    const principal = await this.credentials.fromText(decided, credential, kinds);
    return { requestId: newRequestId(), tenant: decided, principal, policy: API_RESPONSE };
  }

  /** The headers the response of a request carries (request id and its policy's security headers). */
  headers(policy: ResponsePolicy, requestId: string): Record<string, string> {
    return responseHeaders(policy, requestId);
  }

  /** Writes the access line of a finished request. */
  finished(policy: ResponsePolicy, requestId: string, method: string, url: string, status: number, ms: number): void {
    if (this.log) this.log.access(accessEntry(policy, requestId, method, url, status, ms));
  }
}
