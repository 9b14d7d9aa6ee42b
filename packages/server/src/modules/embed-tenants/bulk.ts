import { sql } from 'kysely';
import { ApiError, badRequest } from '../../http/errors.js';
import { assertGoodValues } from '../../http/text-rule.js';
import { makeAjv } from '../../http/validation.js';
import { describeValidation } from '../../http/validation-messages.js';
import type { Executor } from '../../store/executor.js';
import type { Catalog } from './external-user-repo.js';
import type { Catalogs, ExternalUserChange } from './external-users.js';
import { isRetryable } from '../../store/transaction.js';
import { EmbedUserProfile, ProvisionEmbedUserInput } from './schemas.js';

const NOT_ACCEPTED = ['userAttributes', 'securityContext'] as const;

/** The body validator's own rules and wording, for one entry at a time. */
const entryAjv = makeAjv(false).addSchema(EmbedUserProfile);
const validateEntry = entryAjv.compile(ProvisionEmbedUserInput);

/** The same rules as the single-user body, checked here so that one bad entry fails alone. */
export function parseEntry(raw: unknown): ProvisionEmbedUserInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('Each entry of users must be an object');
  assertGoodValues(raw, '');
  const refused = NOT_ACCEPTED.filter((field) => field in raw);
  if (refused.length > 0) throw badRequest(`${refused.join(' and ')} cannot be provisioned; send them with generate-session`);
  if (!validateEntry(raw)) throw new ApiError('validation_failed', describeValidation(validateEntry.errors ?? [], 'entry'));
  return raw as ProvisionEmbedUserInput;
}

export function rawExternalId(raw: unknown): string | null {
  const id = typeof raw === 'object' && raw !== null ? (raw as { externalId?: unknown }).externalId : undefined;
  return typeof id === 'string' ? id.trim().toLowerCase() : null;
}

/** An entry's parsed or resolved change, or what stopped it (reported with `describe`). */
export type Outcome<T> = { change: T } | { error: unknown };

export function attempt<T>(work: () => T): Outcome<T> {
  try {
    return { change: work() };
  } catch (error) {
    return { error };
  }
}

/** Like `attempt`, except that an error that aborts the transaction ends the whole attempt. */
export async function attemptAsync<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { change: await work() };
  } catch (error) {
    if (isRetryable(error)) throw error;
    return { error };
  }
}

/**
 * Runs `work` in a savepoint, undone when it fails. A failure that aborts the transaction is
 * rethrown; any other is rethrown with `rethrow`, or else reported as `undefined`.
 */
export async function inSavepoint<T>(trx: Executor, work: () => Promise<T>, rethrow = false): Promise<T | undefined> {
  await sql`savepoint provision_entries`.execute(trx);
  try {
    const result = await work();
    await sql`release savepoint provision_entries`.execute(trx);
    return result;
  } catch (error) {
    await sql`rollback to savepoint provision_entries`.execute(trx);
    if (rethrow || isRetryable(error)) throw error;
    return undefined;
  }
}

/**
 * Valid entries grouped so that each externalId appears once per round, rounds in order: the
 * n-th entry for an externalId goes to round n, after the entries it follows in the request.
 */
export function rounds<T extends { externalId: string }>(outcomes: Array<Outcome<T>>): Array<Array<{ index: number; change: T }>> {
  const seen = new Map<string, number>();
  const result: Array<Array<{ index: number; change: T }>> = [];
  for (const [index, outcome] of outcomes.entries()) {
    if (!('change' in outcome)) continue;
    const round = seen.get(outcome.change.externalId) ?? 0;
    seen.set(outcome.change.externalId, round + 1);
    (result[round] ??= []).push({ index, change: outcome.change });
  }
  return result;
}

export function describe(error: unknown) {
  if (error instanceof ApiError) return { status: error.status, message: error.message };
  return { status: 500, message: 'Internal server error' };
}

/** Remembers every name looked up, found or not, so the entries of one request share lookups. */
export function cached(inner: Catalogs): Catalogs {
  const memo = (lookup: Catalogs['groups']) => {
    const known = new Map<string, Map<string, Awaited<ReturnType<Catalogs['groups']>> extends Map<string, infer D> ? D | null : never>>();
    return async (catalog: Catalog, names: string[]) => {
      const seen = known.get(catalog) ?? new Map();
      known.set(catalog, seen);
      const unknown = names.filter((n) => !seen.has(n));
      if (unknown.length > 0) {
        const found = await lookup(catalog, unknown);
        for (const name of unknown) seen.set(name, found.get(name) ?? null);
      }
      return new Map(names.filter((n) => seen.get(n)).map((n) => [n, seen.get(n)!]));
    };
  };
  return { groups: memo(inner.groups), attributes: memo(inner.attributes) };
}

export async function prefetch(catalogs: Catalogs, changes: ExternalUserChange[]) {
  for (const catalog of ['account', 'tenant'] as const) {
    const names = [...new Set(changes.flatMap((c) => c.groups[catalog] ?? []))];
    if (names.length > 0) await catalogs.groups(catalog, names);
  }
}
