import { badRequest } from '../http/errors.js';
import { EgressRefusedError, type EgressPolicy } from './policy.js';

/**
 * Refuses, as a 400 naming `field`, a URL a tenant saves that the server would not fetch: an
 * internal address, or a name resolving to one. A name that does not resolve yet is kept; every
 * request to it is checked again (egressFetch).
 */
export async function demandAllowedUrl(egress: EgressPolicy, field: string, value: string | null | undefined): Promise<void> {
  if (value == null) return;
  try {
    await egress.checkUrl(value, field, { unresolved: 'accept' });
  } catch (error) {
    if (error instanceof EgressRefusedError) throw badRequest(error.message);
    throw error;
  }
}
