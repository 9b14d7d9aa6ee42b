import type { Kysely } from 'kysely';
import { toIso } from '../../http/common-schemas.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { SecretBox } from '../../lib/secrets.js';
import type { Database, DeploymentEnvironmentTokenTable, ModelBranchRow } from '../../store/schema.js';
import type { Selectable } from 'kysely';
import { credentialKey } from '../data-model/public.js';
import type { Services } from '../module.js';
import { databaseOf, type SqlCredential } from '../sql-api/public.js';
import type { DeploymentSecrets } from './secrets.js';
import { mintDataToken } from './tokens.js';
import { ENVIRONMENT_TOKEN_MAX_SECONDS, type ENVIRONMENT_TYPES } from './environment-schemas.js';

type EnvironmentType = (typeof ENVIRONMENT_TYPES)[number];
const DEFAULT_LIMIT = 100;

export interface EnvironmentView {
  id: string;
  type: EnvironmentType;
  branch: string | null;
  user: string | null;
  api_credentials: Array<
    | { type: 'rest'; version: 1; url: string; host: null; port: null; database: null }
    | { type: 'sql'; version: 1; url: string; host: string; port: number; database: string; user: string; password: string }
  >;
}

export interface Page {
  offset?: number | undefined;
  limit?: number | undefined;
}

export interface TokenInput {
  security_context: Record<string, unknown>;
  expires_in?: number | null | undefined;
  scopes?: string[] | null | undefined;
}

/**
 * A deployment's environments are views of its branches, so they need no table: production is the
 * deploy branch, staging each shared branch whose staging environment is enabled (alwaysActive),
 * development each dev branch of the caller. An environment's id is its branch's id; its tokens are
 * data API tokens naming it (claim `environment`), kept so the reference's list can show them again.
 */
export class EnvironmentOps {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    private readonly secrets: DeploymentSecrets,
    private readonly services: Services,
  ) {}

  async list(principal: Principal, deploymentId: number, baseUrl: string, query: Page & { type?: EnvironmentType | undefined }) {
    const all = await this.environments(principal, deploymentId, baseUrl);
    const wanted = query.type === undefined ? all : all.filter((e) => e.type === query.type);
    return paged(wanted, query);
  }

  async tokens(principal: Principal, deploymentId: number, environmentId: number, baseUrl: string, query: Page) {
    await this.environment(principal, deploymentId, environmentId, baseUrl);
    const rows = await this.db
      .selectFrom('deployment_environment_token')
      .selectAll()
      .where('account_id', '=', principal.accountId)
      .where('deployment_id', '=', deploymentId)
      .where('environment_id', '=', String(environmentId))
      .orderBy('id')
      .execute();
    return paged(
      rows.map((row) => this.tokenView(row)),
      query,
    );
  }

  async createToken(
    principal: Principal,
    deploymentId: number,
    environmentId: number,
    baseUrl: string,
    input: TokenInput,
    forMetaSync: boolean,
  ) {
    if (input.scopes !== undefined && input.scopes !== null)
      throw badRequest('scopes are not supported: leave scopes out or set it to null');
    const environment = await this.environment(principal, deploymentId, environmentId, baseUrl);
    const minted = await mintDataToken(this.secrets, principal.accountId, deploymentId, {
      securityContext: input.security_context,
      expiresIn: input.expires_in ?? ENVIRONMENT_TOKEN_MAX_SECONDS,
      environment: environment.id,
    });
    const row = await this.db
      .insertInto('deployment_environment_token')
      .values({
        account_id: principal.accountId,
        deployment_id: deploymentId,
        environment_id: environment.id,
        for_meta_sync: forMetaSync,
        security_context: JSON.stringify(minted.securityContext),
        token_sealed: this.box.seal(minted.token),
        expires_at: minted.expiresAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { data: this.tokenView(row) };
  }

  /**
   * A new password for the environment's SQL user, shown this once (the list shows it again
   * after). 404 as for its tokens when the environment is not the caller's to see.
   */
  async rotateSqlPassword(principal: Principal, deploymentId: number, environmentId: number, baseUrl: string) {
    const environment = await this.environment(principal, deploymentId, environmentId, baseUrl);
    const { sqlApi } = this.services;
    const port = sqlApi.port;
    if (port === null) throw badRequest('The SQL API is off on this server (PLINTH_SQL_PORT=off): there is no SQL password to rotate');
    // An environment is a branch (its id, its name), which the SQL user is made for if it had none yet.
    const branch = { id: environmentId, account_id: principal.accountId, deployment_id: deploymentId, name: environment.branch! };
    const rotated = await sqlApi.rotatePassword(branch);
    return { data: this.sqlCredential(deploymentId, baseUrl, port, rotated) };
  }

  /** 404 for an id that is not one of the caller's environments of the deployment (another's dev branch included). */
  private async environment(principal: Principal, deploymentId: number, environmentId: number, baseUrl: string) {
    const found = (await this.environments(principal, deploymentId, baseUrl)).find((e) => e.id === String(environmentId));
    if (!found) throw notFound(`Environment ${environmentId} not found in deployment ${deploymentId}`);
    return found;
  }

  private async environments(principal: Principal, deploymentId: number, baseUrl: string): Promise<EnvironmentView[]> {
    const dataModel = this.services.dataModel;
    // The URL actually served: host-based under PLINTH_BASE_DOMAIN, else `{base_url}/d/{id}`.
    const root = await this.services.deployments.url(principal.accountId, deploymentId, baseUrl);
    await dataModel.ensureDefault(principal.accountId, deploymentId);
    const rows = await dataModel.repo.listBranches(deploymentId, credentialKey(principal));
    const views: EnvironmentView[] = [];
    for (const row of rows) {
      const type = typeOf(row);
      if (!type) continue;
      const url = type === 'production' ? `${root}/cubejs-api/v1` : `${root}/dev-mode/${encodeURIComponent(row.name)}/cubejs-api/v1`;
      views.push({
        id: String(row.id),
        type,
        branch: row.name,
        user: null,
        api_credentials: [{ type: 'rest', version: 1, url, host: null, port: null, database: null }],
      });
    }
    return this.withSqlCredentials(principal.accountId, deploymentId, baseUrl, views);
  }

  /** Each environment's SQL API credential beside its REST one, while the SQL listener is on. */
  private async withSqlCredentials(accountId: number, deploymentId: number, baseUrl: string, views: EnvironmentView[]) {
    const { sqlApi } = this.services;
    const port = sqlApi.port;
    if (port === null) return views;
    const credentials = await sqlApi.environmentCredentials(
      accountId,
      deploymentId,
      views.map((v) => v.id),
    );
    for (const view of views) {
      const credential = credentials.get(view.id);
      if (credential) view.api_credentials.push(this.sqlCredential(deploymentId, baseUrl, port, credential));
    }
    return views;
  }

  private sqlCredential(deploymentId: number, baseUrl: string, port: number, credential: SqlCredential) {
    const host = new URL(baseUrl).hostname;
    const database = databaseOf(deploymentId);
    const url = `postgresql://${encodeURIComponent(credential.user)}@${host}:${port}/${database}`;
    return { type: 'sql' as const, version: 1 as const, url, host, port, database, ...credential };
  }

  private tokenView(row: Selectable<DeploymentEnvironmentTokenTable>) {
    return {
      token: this.box.open(row.token_sealed),
      security_context: row.security_context,
      created_at: toIso(row.created_at),
      expires_at: toIso(row.expires_at),
    };
  }
}

function typeOf(row: ModelBranchRow): EnvironmentType | null {
  if (row.is_default) return 'production';
  if (row.kind === 'dev') return 'development';
  return row.always_active ? 'staging' : null;
}

function paged<T>(items: T[], query: Page) {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? DEFAULT_LIMIT;
  return { data: items.slice(offset, offset + limit), pagination: { total: items.length, offset, limit } };
}
