import type { Kysely } from 'kysely';
import { badRequest } from '../../http/errors.js';
import type { Executor } from '../../store/executor.js';
import type { Database } from '../../store/schema.js';
import { attempt, attemptAsync, cached, describe, inSavepoint, parseEntry, prefetch, rawExternalId, rounds, type Outcome } from './bulk.js';
import type { Catalog } from './external-user-repo.js';
import type { ExternalUserChange, ResolvedChange } from './external-users.js';
import { transactionWithRetry } from '../../store/transaction.js';
import { checkEmail, checkPicture, normaliseExternalId } from './rules.js';
import type { ProvisionEmbedUserInput, ProvisionEmbedUsersResult } from './schemas.js';
import type { AccountRef, EmbedTenantService, EmbedTenantUserView } from './service.js';

/**
 * Section 4.5: creating or updating external users ahead of their first session. `groups` names
 * tenant-wide groups and `tenantGroups` the embed tenant's own; both follow 2.7.
 */
export class EmbedProvisioningService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tenants: EmbedTenantService,
  ) {}

  async provisionUser(account: AccountRef, tenantName: string, input: ProvisionEmbedUserInput): Promise<EmbedTenantUserView> {
    const change = toChange(input);
    const users = this.tenants.externalUsers;
    return transactionWithRetry(this.db, async (trx) => {
      const tenant = await this.tenants.tenant(account, tenantName, { create: true });
      const resolved = await users.resolve(change, users.catalogs(account.id, tenant.id, trx));
      const { user } = await users.write(account.id, tenant.id, resolved, trx);
      return this.tenants.userView(account.id, user.id, trx);
    });
  }

  /**
   * Partial success (4.5 rule 5): entries apply as if sent one by one, in order, in one
   * transaction. Every entry is checked in memory against names looked up once per request; the
   * valid ones are then written set-based, in rounds in which each externalId appears once (a
   * repeated externalId applies after its earlier entries). A round that fails for a reason no
   * check foresaw is redone entry by entry, each in a savepoint, so that a failed entry leaves
   * nothing behind and the others go on. When PostgreSQL aborts the transaction (deadlock with a
   * concurrent caller, a group deleted under us) the whole request starts again.
   */
  async provisionUsers(account: AccountRef, tenantName: string, entries: unknown[]): Promise<ProvisionEmbedUsersResult> {
    const { bulkActionLimit } = await this.tenants.lookups.settings(account.id);
    if (entries.length > bulkActionLimit) {
      throw badRequest(
        `users has ${entries.length} entries; the account's bulk-action limit (bulkActionLimit) is ${bulkActionLimit} per request`,
      );
    }
    const users = this.tenants.externalUsers;
    const parsed = entries.map((raw) => attempt(() => toChange(parseEntry(raw))));
    return transactionWithRetry(
      this.db,
      async (trx: Executor) => {
        const tenant = await this.tenants.tenant(account, tenantName, { create: true });
        const catalogs = cached(users.catalogs(account.id, tenant.id, trx));
        await prefetch(
          catalogs,
          parsed.flatMap((p) => ('change' in p ? [p.change] : [])),
        );
        const outcomes: Array<Outcome<ResolvedChange>> = [];
        for (const entry of parsed)
          outcomes.push('error' in entry ? entry : await attemptAsync(() => users.resolve(entry.change, catalogs)));
        const errors = new Map<number, unknown>();
        for (const round of rounds(outcomes)) {
          const written = await inSavepoint(trx, () =>
            users.writeMany(
              account.id,
              tenant.id,
              round.map((r) => r.change),
              trx,
            ),
          );
          for (const [i, { index, change }] of round.entries()) {
            const one = () => inSavepoint(trx, () => users.write(account.id, tenant.id, change, trx), true);
            const outcome = written ? written[i]! : await attemptAsync(one);
            if ('error' in outcome) errors.set(index, outcome.error);
          }
        }
        const result: ProvisionEmbedUsersResult = { succeeded: [], failed: [] };
        for (const [index, outcome] of outcomes.entries()) {
          const externalId = 'change' in outcome ? outcome.change.externalId : rawExternalId(entries[index]);
          const error = 'error' in outcome ? outcome.error : errors.get(index);
          if (error !== undefined) result.failed.push({ index, externalId, error: describe(error) });
          else result.succeeded.push({ index, externalId: externalId! });
        }
        return result;
      },
      () => this.tenants.lookups.forgetAccount(account.id),
    );
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
