import type { Kysely } from 'kysely';
import { authorize, type Resource } from '../../http/authorize.js';
import { toIso, toIsoOrNull } from '../../http/common-schemas.js';
import { badRequest, forbidden, notFound, unauthenticated } from '../../http/errors.js';
import { byId, decodeCursor, pageSize, toPage, type PageQuery } from '../../http/pagination.js';
import type { UserPrincipal } from '../../http/principal.js';
import { hashCredential, randomBase62, type SecretBox } from '../../lib/secrets.js';
import type { Executor } from '../../store/executor.js';
import type { Database } from '../../store/schema.js';
import type { DeploymentService } from '../deployments/service.js';
import { isRetryable, transactionWithRetry } from '../../store/transaction.js';
import type { AccountRef, Catalog, EmbedTenantService } from '../embed-tenants/public.js';
import type { GroupService } from '../groups/service.js';
import type { TenantSettingsService } from '../tenant-settings/service.js';
import type { UserAttributeService } from '../user-attributes/service.js';
import type { UserService } from '../users/service.js';
import { mintForKnownUser, sessionClaims } from './known-user.js';
import { EmbedSessionRepo } from './repo.js';
import { parseSessionRequest, type SessionRequest } from './request.js';
import type { EmbedSessionRecord, GenerateSessionInput } from './schemas.js';
import {
  assertMayOpenDashboard,
  EmbedSigningKeys,
  SESSION_EXCHANGE_WINDOW_MS,
  type EmbedClaims,
  type VerifiedEmbedToken,
} from './tokens.js';

const SESSIONS = byId('embed-sessions');

export { SESSION_EXCHANGE_WINDOW_MS } from './tokens.js';

/** A session for an internal admin acts with an admin's reach on the whole account. */
const AN_ADMIN: Resource = { type: 'credential', role: 'admin', deploymentIds: null };

export interface EmbedServiceDeps {
  deployments: DeploymentService;
  users: UserService;
  groups: GroupService;
  userAttributes: UserAttributeService;
  tenantSettings: TenantSettingsService;
  embedTenants: EmbedTenantService;
}

/**
 * Signed embedding (4.3): generate-session mints a one-time session holding everything the embed
 * token will say; the exchange turns it, once and within 5 minutes, into a 24-hour JWT.
 */
export class EmbedService {
  readonly keys: EmbedSigningKeys;

  constructor(
    private readonly db: Kysely<Database>,
    secrets: SecretBox,
    private readonly deps: EmbedServiceDeps,
  ) {
    this.keys = new EmbedSigningKeys(db, secrets);
  }

  /**
   * Every check runs before the first write, and every write is in one transaction or one
   * statement: a failure leaves nothing. A known user's page view takes one statement; anything
   * else, or a known user another request is changing, takes the transaction that locks the user.
   */
  async generateSession(account: AccountRef, principal: UserPrincipal, input: GenerateSessionInput): Promise<{ sessionId: string }> {
    const request = parseSessionRequest(input);
    let settings = await this.checkContext(account.id, request);
    const internal = request.user.kind === 'internal' ? await this.internalUser(account.id, principal, request.user.username) : undefined;

    const sessionId = randomBase62(43);
    const lookups = this.deps.embedTenants.lookups;
    let retried = false;
    try {
      if (!internal && (await mintForKnownUser(this.db, this.deps.embedTenants, { account, principal, request, settings, sessionId })))
        return { sessionId };
    } catch (error) {
      if (!isRetryable(error)) throw error;
      // As after an aborted transaction: something remembered may be stale.
      retried = true;
      lookups.forgetAccount(account.id);
    }
    await transactionWithRetry(
      this.db,
      async (trx) => {
        // A retry may follow a deployment or group deleted under us: ask the store, not the lookups.
        if (retried) settings = await this.checkContext(account.id, request);
        const tenant = await this.deps.embedTenants.tenant(account, request.embedTenantName, { create: true });
        const minted = internal
          ? await this.internalClaims(account.id, internal)
          : await this.externalClaims(account.id, tenant.id, request, trx);
        const claims: EmbedClaims = { ...sessionClaims(account.id, tenant.name, request, settings), ...minted.claims };
        await new EmbedSessionRepo(trx).insert({
          account_id: account.id,
          session_hash: hashCredential(sessionId),
          api_key_id: principal.kind === 'apiKey' ? principal.credentialId : null,
          deployment_id: request.deploymentId,
          embed_tenant_id: tenant.id,
          external_user_id: minted.externalUserId,
          internal_user_id: internal?.id ?? null,
          user_ref: minted.userRef,
          creator_mode: request.creatorMode,
          show_dashboard_chat: request.showDashboardChat ?? null,
          claims: JSON.stringify(claims),
          exchange_by: new Date(Date.now() + SESSION_EXCHANGE_WINDOW_MS),
        });
      },
      () => {
        retried = true;
        lookups.forgetAccount(account.id);
      },
    );
    return { sessionId };
  }

  /**
   * The checks of 2.4 and 2.10 that need the store, in the order a caller would fix them; first
   * whether the account embeds at all (the reference's 403), so nothing else is revealed when not.
   * The key's deployment scope was checked before, from the route's declaration.
   */
  private async checkContext(accountId: number, request: SessionRequest) {
    const lookups = this.deps.embedTenants.lookups;
    const settings = await lookups.settings(accountId);
    if (!settings.embeddingEnabled) {
      throw forbidden('Embedding is not enabled for this account: an admin can turn on the embeddingEnabled tenant setting');
    }
    if (!(await lookups.deploymentExists(accountId, request.deploymentId))) throw notFound(`Deployment ${request.deploymentId} not found`);
    if (request.creatorMode && !settings.useCreatorMode) {
      throw badRequest('creatorMode requires the useCreatorMode tenant setting, which is off for this account');
    }
    return settings;
  }

  /** Once, within the exchange window, and never after a revocation; otherwise 401. */
  async exchange(account: AccountRef, sessionId: string): Promise<{ token: string }> {
    const row = await new EmbedSessionRepo(this.db).consume(account.id, hashCredential(sessionId));
    if (!row) throw unauthenticated('Unknown, already exchanged, revoked or expired embed session');
    const claims = row.claims as unknown as EmbedClaims;
    return { token: await this.keys.sign(claims, row.id, row.user_ref) };
  }

  /** Idempotent, and silent about ids it does not know: the id is the credential. */
  /**
   * By the session id (the secret generate-session answered) or by the audit id `listEmbedSessions`
   * shows. Revoking twice is fine; a session the account never minted is a 404.
   */
  async revoke(account: AccountRef, session: { sessionId: string } | { id: number }): Promise<void> {
    const target = 'sessionId' in session ? { hash: hashCredential(session.sessionId) } : { id: session.id };
    if (!(await new EmbedSessionRepo(this.db).revoke(account.id, target))) {
      throw notFound('sessionId' in session ? 'Unknown embed session' : `Embed session ${session.id} not found`);
    }
  }

  /**
   * For the data API and embed pages: signature, expiry, account, and a session not revoked since.
   * A page that opens a dashboard names it, and a token minted for another dashboard gets 403.
   */
  async verifyEmbedToken(account: AccountRef, token: string, opens?: { dashboardId: string }): Promise<VerifiedEmbedToken> {
    const verified = await this.keys.verify(account.id, token);
    const session = await new EmbedSessionRepo(this.db).findById(account.id, verified.sessionId);
    if (!session) throw unauthenticated('Invalid embed token');
    if (session.revoked_at) throw unauthenticated('The embed session of this token has been revoked');
    if (opens) assertMayOpenDashboard(verified, opens.dashboardId);
    return { ...verified, embedTenantId: session.embed_tenant_id };
  }

  async list(accountId: number, query: PageQuery) {
    const rows = await new EmbedSessionRepo(this.db).list(accountId, decodeCursor(SESSIONS, query.after)?.id, pageSize(query) + 1);
    return toPage(SESSIONS, rows, query, (r): EmbedSessionRecord => ({
      id: r.id,
      createdAt: toIso(r.created_at),
      apiKeyId: r.api_key_id,
      deploymentId: r.deployment_id,
      embedTenantName: r.embed_tenant_name,
      externalId: r.internal_user_id === null && r.external_user_id !== null ? r.user_ref : null,
      internalId: r.internal_user_id !== null ? r.user_ref : null,
      creatorMode: r.creator_mode,
      exchanged: r.exchanged_at !== null,
      exchangedAt: toIsoOrNull(r.exchanged_at),
      revoked: r.revoked_at !== null,
      revokedAt: toIsoOrNull(r.revoked_at),
    }));
  }

  /**
   * A session acts as the internal user, so one for an admin carries an admin's reach: only a
   * credential with that reach may mint it, an admin key for every deployment of the account.
   */
  private async internalUser(accountId: number, principal: UserPrincipal, username: string) {
    const user = await this.deps.users.findByEmail(accountId, username);
    if (!user) throw badRequest(`internalId "${username}" does not name an existing user of this account`);
    if (!user.active) throw badRequest(`internalId "${username}" names a deactivated user`);
    if (user.role === 'admin' && authorize(principal, 'EmbedSessionsManage', AN_ADMIN) !== null) {
      throw forbidden(
        `internalId "${username}" names an admin: only an admin API key for every deployment may mint a session for an admin`,
      );
    }
    return { ...user, email: user.email ?? username };
  }

  /** An internal user brings their own tenant-wide groups and attribute values (2.4). */
  private async internalClaims(accountId: number, user: { id: number; email: string }) {
    const groups = await this.deps.groups.groupsOfUser(accountId, user.id);
    const values = await this.deps.userAttributes.getValues(accountId, user.id);
    return {
      externalUserId: null,
      userRef: user.email,
      claims: {
        user: { type: 'internal' as const, id: user.id, email: user.email },
        groups: groups.map((g) => g.name).sort(),
        userAttributes: Object.fromEntries(values.map((v) => [v.name, v.value])),
      },
    };
  }

  /**
   * Definitions first (2.9 rule 4), then names resolved and checked, then the user written under
   * its row lock; the token carries the user's memberships and values as they now stand.
   */
  private async externalClaims(accountId: number, tenantId: number, request: SessionRequest, trx: Executor) {
    if (request.user.kind !== 'external') throw new Error('unreachable');
    const { change, definitions } = request.user;
    const users = this.deps.embedTenants.externalUsers;
    if (definitions.groupDefinitions || definitions.userAttributeDefinitions) {
      await this.deps.embedTenants.applyDefinitions(accountId, tenantId, definitions, trx);
    }
    const resolved = await users.resolve(change, users.catalogs(accountId, tenantId, trx));
    const catalog: Catalog = request.creatorMode ? 'tenant' : 'account';
    const { user, state } = await users.write(accountId, tenantId, resolved, trx, catalog, request.user.ephemeralTtlSeconds);
    const supplied = change.groups[catalog];
    const groups = supplied ? [...new Set(supplied)] : state!.groups;
    const values = [...state!.values].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return {
      externalUserId: user.id,
      userRef: user.external_id,
      claims: {
        user: {
          type: 'external' as const,
          externalId: user.external_id,
          email: user.email,
          userProfile: { displayName: user.display_name, picture: user.picture },
          ...(user.expires_at ? { expiresAt: new Date(user.expires_at).toISOString() } : {}),
        },
        groups: groups.sort(),
        userAttributes: Object.fromEntries(values.map((v) => [v.name, v.value])),
      },
    };
  }
}
