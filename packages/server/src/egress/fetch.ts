import type { Dispatcher } from 'undici';
import { EgressRefusedError, type EgressPolicy } from './policy.js';

/** undici on the first outbound request: a server that makes none is spared its 15 MiB. */
const undici = () => import('undici');

/**
 * A dispatcher whose every connection, the first and each redirect's, goes through the policy:
 * the host is resolved and checked at connect time and the socket is opened to the address that
 * was checked (TLS still verifies the name), so no later answer of the resolver is ever used.
 */
export async function guardedDispatcher(policy: EgressPolicy, what: string): Promise<Dispatcher> {
  const { Agent, buildConnector } = await undici();
  const connect = buildConnector({});
  return new Agent({
    connect: (options, callback) => {
      policy.addressesOf(options.hostname, what).then(
        ([address]) => connect({ ...options, hostname: address! }, callback),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
      );
    },
  });
}

/**
 * `fetch` for a tenant-chosen URL: refused before any request when the URL or its host is not
 * allowed, and at every connection after that. A refusal is an EgressRefusedError, whatever
 * undici wraps it in.
 */
export async function egressFetch(policy: EgressPolicy, what: string, url: string | URL, init: RequestInit = {}): Promise<Response> {
  const checked = await policy.checkUrl(url, what);
  const dispatcher = await guardedDispatcher(policy, what);
  try {
    return (await (await undici()).fetch(checked, { ...(init as object), dispatcher })) as unknown as Response;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof EgressRefusedError) throw cause;
    throw error;
  } finally {
    // The response body is still readable: close() waits for requests in flight.
    void dispatcher.close();
  }
}
