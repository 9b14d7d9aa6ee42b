import { randomUUID } from 'node:crypto';
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

/** A request id of our making: only these are ever written into an access line unescaped. */
export const newRequestId = (): string => randomUUID();

/**
 * The context of work the server does for a principal outside any request (a report's refresh
 * run by a job, a notification): a fresh request id, the principal's own account.
 */
export function contextFor<P extends Principal>(principal: P, requestId = newRequestId()): AuthenticatedContext<P> {
  return { requestId, tenant: { id: principal.accountId }, principal, policy: API_RESPONSE };
}
