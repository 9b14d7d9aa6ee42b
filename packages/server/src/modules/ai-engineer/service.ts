import type { Kysely } from 'kysely';
import { badRequest } from '../../http/errors.js';
import { toIso, toIsoOrNull } from '../../http/common-schemas.js';
import type { UserPrincipal } from '../../http/principal.js';
import type { Database } from '../../store/schema.js';
import type { Services } from '../module.js';
import type { AccountSettingsView, ActiveAgentRegionView, AIEngineerSettingsView, UpdateAIEngineerSettingsInput } from './schemas.js';

export const DEFAULT_TOKEN_TTL_SECONDS = 900;

export interface SettingsTarget {
  deploymentId?: number | undefined;
  agentId?: number | undefined;
}

/**
 * The AI engineer's settings. Plinth runs no AI engineer: an account plugs in its own (an agent
 * runtime calling its OpenAI-compatible endpoints), which needs to reach Plinth as the person
 * using it. So `url` is the account's API and `token` a short-lived access token of the caller,
 * issued on each read: the same user with the same rights (resource policies included), nothing
 * of anyone else's, and gone after `tokenTtlSeconds`. Only an access token gets one: an API key
 * may be narrower than its user (a role, deployments, permissions), and the new token would not be. The active region is the
 * user's choice among the configured regions, the first of them until they choose.
 */
export class AIEngineerService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly regions: readonly string[],
    private readonly services: Pick<Services, 'credentials' | 'agents'>,
  ) {}

  async accountSettings(accountId: number): Promise<AccountSettingsView> {
    const row = await this.db.selectFrom('ai_engineer_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
    if (!row) return { enabled: true, tokenTtlSeconds: DEFAULT_TOKEN_TTL_SECONDS, updatedAt: null };
    return { enabled: row.enabled, tokenTtlSeconds: row.token_ttl_seconds, updatedAt: toIso(row.updated_at) };
  }

  async settings(principal: UserPrincipal, baseUrl: string, target: SettingsTarget): Promise<AIEngineerSettingsView> {
    const { accountId } = principal;
    if (target.deploymentId !== undefined) await this.services.agents.assertDeployment(accountId, target.deploymentId);
    if (target.agentId !== undefined) await this.services.agents.assertAgent(accountId, target.agentId);
    const account = await this.accountSettings(accountId);
    const issued =
      account.enabled && principal.kind === 'accessToken'
        ? await this.services.credentials.issueAccessToken(accountId, principal.userId, account.tokenTtlSeconds)
        : undefined;
    return {
      url: `${baseUrl}/api/v1`,
      token: issued?.accessToken ?? '',
      expiresAt: issued ? new Date(Date.now() + issued.expiresIn * 1000).toISOString() : null,
      cubeCredentials: null,
      graphqlToken: null,
      mcpToken: null,
      hasAgentAccess: account.enabled,
      enabled: account.enabled,
      tokenTtlSeconds: account.tokenTtlSeconds,
    };
  }

  async update(principal: UserPrincipal, input: UpdateAIEngineerSettingsInput): Promise<AccountSettingsView> {
    const current = await this.accountSettings(principal.accountId);
    const values = {
      enabled: input.enabled ?? current.enabled,
      token_ttl_seconds: input.tokenTtlSeconds ?? current.tokenTtlSeconds,
      updated_by: principal.userId,
      updated_at: new Date(),
    };
    await this.db
      .insertInto('ai_engineer_settings')
      .values({ account_id: principal.accountId, ...values })
      .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
      .execute();
    return this.accountSettings(principal.accountId);
  }

  async activeRegion(principal: UserPrincipal): Promise<ActiveAgentRegionView> {
    const row = await this.db
      .selectFrom('agent_region_choice')
      .selectAll()
      .where('account_id', '=', principal.accountId)
      .where('user_id', '=', principal.userId)
      .executeTakeFirst();
    // A region removed from the configuration since it was chosen is no longer active: the default is.
    if (!row || !this.regions.includes(row.region_name)) {
      return { userId: principal.userId, regionName: this.regions[0] ?? 'local', createdAt: null, updatedAt: null };
    }
    return {
      userId: principal.userId,
      regionName: row.region_name,
      createdAt: toIsoOrNull(row.created_at),
      updatedAt: toIso(row.updated_at),
    };
  }

  async chooseRegion(principal: UserPrincipal, regionName: string): Promise<ActiveAgentRegionView> {
    if (!this.regions.includes(regionName)) {
      throw badRequest(`regionName "${regionName}" is not a region here; regions: ${this.regions.join(', ')}`);
    }
    const now = new Date();
    await this.db
      .insertInto('agent_region_choice')
      .values({ account_id: principal.accountId, user_id: principal.userId, region_name: regionName })
      .onConflict((oc) => oc.columns(['account_id', 'user_id']).doUpdateSet({ region_name: regionName, updated_at: now }))
      .execute();
    return this.activeRegion(principal);
  }
}
