import { randomFillSync } from 'node:crypto';
import type { Principal } from '../http/principal.js';

/**
 * How a response is to be sent, whatever carries it (a Fastify route, a static page, a cached
 * answer): a route declares it once, and every way out of the server applies it the same.
 */
export interface ResponsePolicy {
  /** The response hands out a secret (a new key or token, a session id, a page holding one): no cache may keep it. */
  carriesSecret?: boolean;
  /** An HTML page of ours: a strict CSP, no framing, no referrer (the login pages, the web package's pages). */
  page?: boolean;
  /**
   * An embed page (modules/embed-pages): meant to be framed by the customer's product. Its own CSP
   * (scripts of this server only, frame-ancestors of the account), never X-Frame-Options.
   */
  embedPage?: boolean;
  /** The level of its access lines: debug for requests too frequent and too dull for an operator's log. */
  accessLogLevel?: 'info' | 'debug';
}

/** The policy of an API answer that declares nothing more. */
export const API_RESPONSE: ResponsePolicy = Object.freeze({});

/** The tenant a request acts in: an account, found from a Host, a deployment host or a connection's own words. */
export interface Tenant {
  readonly id: number;
}

/**
 * What a request is, once the pipeline has decided it, independently of what carried it: HTTP
 * through Fastify, a cached answer before Fastify, a page of the web package, a connection of the
 * SQL listener, or work the server does on someone's behalf (a report's refresh). Services take
 * this, never an HTTP request.
 */
export interface RequestContext<P extends Principal | null = Principal | null> {
  /** Names the request in the access line, in errors and in the `x-request-id` response header. */
  readonly requestId: string;
  readonly tenant: Tenant;
  /** Who is calling, once a credential was verified for the tenant; null for a public operation. */
  readonly principal: P;
  readonly policy: ResponsePolicy;
}

/** A context whose credential has been verified. */
export type AuthenticatedContext<P extends Principal = Principal> = RequestContext<P>;

const ID_BYTES = 16;
const IDS_PER_FILL = 256;
/** Random bytes for the next request ids: one call to the system's generator per 256 ids. */
const idBytes = Buffer.alloc(ID_BYTES * IDS_PER_FILL);
let nextId = IDS_PER_FILL;

/**
 * A request id of our making: only these are ever written into an access line unescaped. A random
 * (version 4) UUID, as `randomUUID` gives, but formatted by one hex conversion of its bytes instead
 * of sixteen lookups and twenty concatenations: every request makes one.
 */
export function newRequestId(): string {
  if (nextId === IDS_PER_FILL) {
    randomFillSync(idBytes);
    nextId = 0;
  }
  const at = nextId++ * ID_BYTES;
  idBytes[at + 6] = (idBytes[at + 6]! & 0x0f) | 0x40;
  idBytes[at + 8] = (idBytes[at + 8]! & 0x3f) | 0x80;
  const hex = idBytes.toString('hex', at, at + ID_BYTES);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The context of work the server does for a principal outside any request (a report's refresh
 * run by a job, a notification): a fresh request id, the principal's own account.
 */
export function contextFor<P extends Principal>(principal: P, requestId = newRequestId()): AuthenticatedContext<P> {
  return { requestId, tenant: { id: principal.accountId }, principal, policy: API_RESPONSE };
}
