import { hashCredential } from '../../lib/secrets.js';
import type { Principal } from '../../http/principal.js';
import type { Executor } from '../../store/executor.js';
import type { AccountRef, Catalog, EmbedTenantService } from '../embed-tenants/public.js';
import type { TenantSettings } from '../tenant-settings/service.js';
import type { SessionRequest } from './request.js';
import { SESSION_EXCHANGE_WINDOW_MS } from './tokens.js';

export interface Mint {
  account: AccountRef;
  principal: Principal;
  request: SessionRequest;
  settings: TenantSettings;
  sessionId: string;
}

/**
 * A page view of a kept external user this process has seen, in an embed tenant it knows, without
 * definitions: one statement (EmbedTenantService.mintPageView). False when the full path must run instead.
 */
export async function mintForKnownUser(db: Executor, embedTenants: EmbedTenantService, mint: Mint): Promise<boolean> {
  const { account, principal, request, settings, sessionId } = mint;
  if (request.user.kind !== 'external') return false;
  const { change, definitions, ephemeralTtlSeconds } = request.user;
  if (definitions.groupDefinitions || definitions.userAttributeDefinitions || ephemeralTtlSeconds !== undefined) return false;
  const tenant = embedTenants.knownTenant(account, request.embedTenantName);
  if (!tenant) return false;
  const users = embedTenants.externalUsers;
  const resolved = await users.resolve(change, users.catalogs(account.id, tenant.id, db));
  const catalog: Catalog = request.creatorMode ? 'tenant' : 'account';
  const groupNames = change.groups[catalog];
  return embedTenants.mintPageView(
    {
      accountId: account.id,
      tenantId: tenant.id,
      externalId: change.externalId,
      profile: change.profile,
      catalog,
      groups: groupNames ? { ids: resolved.groups[catalog]!, names: [...new Set(groupNames)].sort() } : undefined,
      values: resolved.values[catalog] ?? [],
      claims: sessionClaims(account.id, tenant.name, request, settings),
      session: {
        hash: hashCredential(sessionId),
        apiKeyId: principal.kind === 'apiKey' ? principal.credentialId : null,
        deploymentId: request.deploymentId,
        creatorMode: request.creatorMode,
        showDashboardChat: request.showDashboardChat ?? null,
        exchangeBy: new Date(Date.now() + SESSION_EXCHANGE_WINDOW_MS),
      },
    },
    db,
  );
}

/** The claims that do not depend on the user. */
export function sessionClaims(accountId: number, tenantName: string, request: SessionRequest, settings: TenantSettings) {
  return {
    accountId,
    deploymentId: request.deploymentId,
    embedTenant: tenantName,
    securityContext: request.securityContext,
    settings: { showDashboardChat: request.showDashboardChat ?? settings.showDashboardChat },
    creatorMode: request.creatorMode,
    roles: request.roles,
    publicDashboardId: request.publicDashboardId,
    embedTheme: request.embedTheme,
  };
}
