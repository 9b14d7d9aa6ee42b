import { ApiError } from '../http/errors.js';
import type { PresentedCredential } from '../http/credential-header.js';
import type { CredentialKind, Principal } from '../http/principal.js';
import type { Check, OperationInput } from '../http/requirement.js';
import type { AccountRow } from '../store/schema.js';
import type { ResponsePolicy } from './context.js';
import type { Credentials } from './credentials.js';
import type { Tenancy } from './tenancy.js';

/** Most answers remembered at once; past it the cache starts over (each entry holds an answer's bytes). */
const MAX_ENTRIES = 2_000;

/** What a request is, as far as the response cache looks: the parts a remembered answer must match byte for byte. */
export interface CacheableRequest {
  method: string | undefined;
  url: string | undefined;
  host: string | undefined;
  authorization: string | undefined;
}

/** What the operation that produced an answer admits, so a repeat is admitted again by the same rule. */
export interface CachedAdmission {
  /** The credential as its header read; a repeat's header is the same text, byte for byte, so it reads the same. */
  presented: PresentedCredential;
  kinds: readonly CredentialKind[];
  check: Check;
  input: OperationInput;
}

/** An answer the full way gave, to give again to an identical request while `current()` holds. */
export interface CachedResponse {
  tenantId: number;
  host: string;
  /** The principal the credential verified to; a repeat must verify to this very principal (so the same claims). */
  principal: Principal;
  admission: CachedAdmission;
  policy: ResponsePolicy;
  contentType: string;
  bytes: Buffer;
  /** Whether everything the answer was made from still holds (the data API: the same build and cached result). */
  current(): boolean;
}

/**
 * The response-cache stage of the request pipeline: a `GET` identical to one just answered
 * (same URL with its query string, Host and Authorization header, byte for byte) is answered with
 * the bytes of that answer, skipping the operation's parsing, validation and work. It is a stage,
 * not a second pipeline: the tenant is decided by the same Tenancy, the credential verified and
 * the operation's requirement checked by the same Credentials.admit, and whoever sends the answer sets the
 * same response-policy headers and access line (response-policy.ts). Only what the operation itself
 * would compute is skipped, and the operation says, through `current()`, until when it would
 * compute the same. A verifier answering only through a promise (a credential it has not just
 * verified: expired, or of a kind it never remembers) declines, to the full way.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Map<string, CachedResponse>>();
  private size = 0;

  constructor(
    private readonly tenancy: Tenancy,
    private readonly credentials: Credentials,
  ) {}

  /**
   * The remembered answer to `request`, or undefined to go the full way. `tenant` is the account
   * the request's Host was found to be served for when the caller has decided it already (a
   * deployment host, inside Fastify); without it the Host must be resolved at hand.
   */
  answer(request: CacheableRequest, tenant?: AccountRow): CachedResponse | undefined {
    const { method, url, host, authorization } = request;
    if (method !== 'GET' || url === undefined || host === undefined || authorization === undefined) return undefined;
    const byCredential = this.entries.get(url);
    const entry = byCredential?.get(authorization);
    if (!entry || entry.host !== host) return undefined;
    const account = tenant ?? this.tenancy.ofHostAtHand(host);
    if (!account || account instanceof ApiError || account.id !== entry.tenantId) return undefined;
    const { presented, kinds, check, input } = entry.admission;
    let principal: Principal | Promise<Principal>;
    try {
      principal = this.credentials.admitPresented(account, presented, kinds, check, input);
    } catch {
      return undefined;
    }
    if (principal instanceof Promise) {
      // The full way verifies it again; this one's outcome is not wanted.
      principal.catch(() => {});
      return undefined;
    }
    if (principal !== entry.principal) return undefined;
    if (entry.current()) return entry;
    byCredential!.delete(authorization);
    if (byCredential!.size === 0) this.entries.delete(url);
    this.size -= 1;
    return undefined;
  }

  /** After the full way answered a `GET`: remembered for identical requests. */
  remember(request: CacheableRequest, entry: CachedResponse): void {
    const { method, url, authorization } = request;
    if (method !== 'GET' || url === undefined || authorization === undefined || request.host !== entry.host) return;
    if (this.size >= MAX_ENTRIES) this.clear();
    let byCredential = this.entries.get(url);
    if (!byCredential) this.entries.set(url, (byCredential = new Map()));
    if (!byCredential.has(authorization)) this.size += 1;
    byCredential.set(authorization, entry);
  }

  clear(): void {
    this.entries.clear();
    this.size = 0;
  }
}
