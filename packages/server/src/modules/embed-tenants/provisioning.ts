import { Value } from '@sinclair/typebox/value';
import { sql, type Kysely } from 'kysely';
import { ApiError, badRequest } from '../../http/errors.js';
import type { Executor } from '../../store/executor.js';
import type { Database } from '../../store/schema.js';
import type { TenantSettingsService } from '../tenant-settings/service.js';
import type { Catalog } from './external-user-repo.js';
import type { Catalogs, ExternalUserChange } from './external-users.js';
import { isRetryable, transactionWithRetry } from './retry.js';
import { checkEmail, checkPicture, normaliseExternalId } from './rules.js';
import { EmbedUserProfile, ProvisionEmbedUserInput, type ProvisionEmbedUsersResult } from './schemas.js';
import type { AccountRef, EmbedTenantService, EmbedTenantUserView } from './service.js';

const NOT_ACCEPTED = ['userAttributes', 'securityContext'] as const;

/**
 * Section 4.5: creating or updating external users ahead of their first session. `groups` names
 * tenant-wide groups and `tenantGroups` the embed tenant's own; both follow 2.7.
 */
export class EmbedProvisioningService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tenants: EmbedTenantService,
    private readonly settings: TenantSettingsService,
  ) {}

  async provisionUser(account: AccountRef, tenantName: string, input: ProvisionEmbedUserInput): Promise<EmbedTenantUserView> {
    const change = toChange(input);
    const users = this.tenants.externalUsers;
    return transactionWithRetry(this.db, async (trx) => {
      const tenant = await this.tenants.tenant(account, tenantName, { create: true }, trx);
      const resolved = await users.resolve(change, users.catalogs(account.id, tenant.id, trx));
      const { user } = await users.write(account.id, tenant.id, resolved, trx);
      return this.tenants.userView(account.id, user.id, trx);
    });
  }

  /**
   * Partial success (4.5 rule 5): entries apply in order, as if sent one by one, each inside a
   * savepoint of one transaction, so a failed entry leaves nothing behind and the others go on,
   * and the request costs one commit instead of one per entry. Names are looked up once for the
   * whole request. When PostgreSQL aborts the transaction (deadlock with a concurrent caller, a
   * group deleted under us) the whole request starts again from the first entry.
   */
  async provisionUsers(account: AccountRef, tenantName: string, entries: unknown[]): Promise<ProvisionEmbedUsersResult> {
    const { bulkActionLimit } = await this.settings.get(account.id);
    if (entries.length > bulkActionLimit) {
      throw badRequest(
        `users has ${entries.length} entries; the account's bulk-action limit (bulkActionLimit) is ${bulkActionLimit} per request`,
      );
    }
    const users = this.tenants.externalUsers;
    const parsed = entries.map((raw) => attempt(() => toChange(parseEntry(raw))));
    return transactionWithRetry(this.db, async (trx: Executor) => {
      const tenant = await this.tenants.tenant(account, tenantName, { create: true }, trx);
      const catalogs = cached(users.catalogs(account.id, tenant.id, trx));
      await prefetch(catalogs, parsed.flatMap((p) => ('change' in p ? [p.change] : [])));
      const result: ProvisionEmbedUsersResult = { succeeded: [], failed: [] };
      for (const [index, entry] of parsed.entries()) {
        if ('error' in entry) {
          result.failed.push({ index, externalId: rawExternalId(entries[index]), error: entry.error });
          continue;
        }
        const { externalId } = entry.change;
        try {
          const resolved = await users.resolve(entry.change, catalogs);
          await sql`savepoint provision_entry`.execute(trx);
          try {
            await users.write(account.id, tenant.id, resolved, trx);
          } catch (error) {
            await sql`rollback to savepoint provision_entry`.execute(trx);
            throw error;
          }
          await sql`release savepoint provision_entry`.execute(trx);
          result.succeeded.push({ index, externalId });
        } catch (error) {
          if (isRetryable(error)) throw error;
          result.failed.push({ index, externalId, error: describe(error) });
        }
      }
      return result;
    });
  }
}

function toChange(input: ProvisionEmbedUserInput): ExternalUserChange {
  const groups: Partial<Record<Catalog, string[]>> = {};
  if (input.groups !== undefined) groups.account = input.groups;
  if (input.tenantGroups !== undefined) groups.tenant = input.tenantGroups;
  const profile = input.userProfile ?? {};
  return {
    externalId: normaliseExternalId(input.externalId),
    profile: {
      email: input.email === undefined ? undefined : checkEmail(input.email),
      displayName: profile.displayName,
      picture: profile.picture === undefined ? undefined : checkPicture(profile.picture),
    },
    groups,
    values: {},
  };
}

/** The same rules as the single-user body, checked here so that one bad entry fails alone. */
function parseEntry(raw: unknown): ProvisionEmbedUserInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('Each entry of users must be an object');
  const refused = NOT_ACCEPTED.filter((field) => field in raw);
  if (refused.length > 0) throw badRequest(`${refused.join(' and ')} cannot be provisioned; send them with generate-session`);
  if (!Value.Check(ProvisionEmbedUserInput, [EmbedUserProfile], raw)) {
    const error = Value.Errors(ProvisionEmbedUserInput, [EmbedUserProfile], raw).First()!;
    const field = error.path.replace(/^\//, '').replace(/\//g, '.');
    throw badRequest(field ? `${field}: ${error.message}` : error.message);
  }
  return raw;
}

function rawExternalId(raw: unknown): string | null {
  const id = typeof raw === 'object' && raw !== null ? (raw as { externalId?: unknown }).externalId : undefined;
  return typeof id === 'string' ? id.trim().toLowerCase() : null;
}

type Outcome<T> = { change: T } | { error: { status: number; message: string } };

function attempt<T>(work: () => T): Outcome<T> {
  try {
    return { change: work() };
  } catch (error) {
    return { error: describe(error) };
  }
}

function describe(error: unknown) {
  if (error instanceof ApiError) return { status: error.status, message: error.message };
  return { status: 500, message: 'Internal server error' };
}

/** Remembers every name looked up, found or not, so the entries of one request share lookups. */
function cached(inner: Catalogs): Catalogs {
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

async function prefetch(catalogs: Catalogs, changes: ExternalUserChange[]) {
  for (const catalog of ['account', 'tenant'] as const) {
    const names = [...new Set(changes.flatMap((c) => c.groups[catalog] ?? []))];
    if (names.length > 0) await catalogs.groups(catalog, names);
  }
}
