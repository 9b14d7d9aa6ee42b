import type { Kysely } from 'kysely';
import { deploymentScope } from '../../http/authorize.js';
import { badRequest, notFound } from '../../http/errors.js';
import { byId, decodeCursor, pageSize, toPage, type PageQuery } from '../../http/pagination.js';
import type { Principal } from '../../http/principal.js';
import { toIso } from '../../http/common-schemas.js';
import type { Database, DeploymentRow } from '../../store/schema.js';
import { afterId } from '../../store/keyset.js';
import { transaction } from '../../store/transaction.js';
import type { Config } from '../../config.js';
import { FIRST_STEP, nextStep } from './steps.js';
import { VersionHistory } from './version-history.js';
import { inEffect, resolveRelease, versionList } from './versions.js';

const DEPLOYMENTS = byId('deployments');

export interface DeploymentView {
  id: number;
  name: string;
  region: string | null;
  deploymentUrl: string;
  creationStep: string;
  createdAt: string;
}

/**
 * Deployments, as far as the foundation needs them: enough for embedding to check a
 * `deploymentId`. The deployments issue adds builds, branches, versions and tokens.
 */
export interface DeploymentChange {
  name?: string | undefined;
  deployMode?: 'cli' | 'git' | undefined;
  creationMethod?: 'github' | 'upload' | 'ssh' | undefined;
  releaseChannelVersion?: string | undefined;
  releaseChannel?: string | undefined;
}

export class DeploymentService {
  private readonly history: VersionHistory;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Pick<Config, 'releaseChannels' | 'imageRepo' | 'regions' | 'baseDomain' | 'publicUrl'>,
    /** What lives outside the store and goes with a deleted deployment: its embedded warehouse's file. */
    private readonly discardOutsideStore: (deploymentId: number) => Promise<void> = async () => {},
  ) {
    this.history = new VersionHistory(db);
  }

  async create(accountId: number, input: { name: string; region?: string | undefined }, baseUrl: string) {
    if (input.region !== undefined && !this.config.regions.includes(input.region)) {
      throw badRequest(`Unknown region "${input.region}"; regions: ${this.config.regions.join(', ')}`);
    }
    // The version a new deployment starts on is the first the account's history gets from it (rule 3).
    const row = await transaction(this.db, async (db) => {
      const created = await db
        .insertInto('deployment')
        .values({ account_id: accountId, name: input.name, region: input.region ?? null })
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.recordRun(created);
      return created;
    });
    return toView(row, baseUrl, this.config);
  }

  /** A scoped API key lists only the deployments it may touch. */
  async list(principal: Principal, query: PageQuery, baseUrl: string) {
    const after = decodeCursor(DEPLOYMENTS, query.after)?.id;
    const scope = deploymentScope(principal);
    const rows = await this.db
      .selectFrom('deployment')
      .selectAll()
      .where('account_id', '=', principal.accountId)
      .$if(scope !== null, (q) => q.where('id', 'in', [...scope!, 0]))
      .$call(afterId('id', after, pageSize(query) + 1))
      .execute();
    return toPage(DEPLOYMENTS, rows, query, (row) => toView(row, baseUrl, this.config));
  }

  /** The route's declaration has checked the caller's scope, before anything says whether `id` exists. */
  async get(principal: Principal, id: number, baseUrl: string): Promise<DeploymentView> {
    const row = await this.find(principal.accountId, id);
    if (!row) throw notFound(`Deployment ${id} not found`);
    return toView(row, baseUrl, this.config);
  }

  /** Every setting, the engine version and channel in effect included (section 9 rule 5). */
  async settings(accountId: number, id: number, baseUrl: string) {
    return this.settingsView(await this.row(accountId, id), baseUrl);
  }

  /** Section 9 rules 3 and 4: fields left out keep their value; a version is checked against its channel's list. */
  async update(accountId: number, id: number, change: DeploymentChange, baseUrl: string) {
    const updated = await transaction(this.db, async (db) => {
      const row = await this.row(accountId, id);
      const release = resolveRelease(this.config, row, change, await this.history.list(accountId));
      const after = await db
        .updateTable('deployment')
        .set({
          name: change.name ?? row.name,
          deploy_mode: change.deployMode ?? row.deploy_mode,
          creation_method: change.creationMethod ?? row.creation_method,
          ...release,
          updated_at: new Date(),
        })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const [was, now] = [inEffect(this.config, row), inEffect(this.config, after)];
      if (was.version !== now.version || was.channel !== now.channel) await this.recordRun(after);
      return after;
    });
    return this.settingsView(updated, baseUrl);
  }

  /**
   * Branches, files, builds, logs and embed sessions go with it (their foreign keys cascade), and so
   * does its embedded warehouse, once the row is gone: a deployment id is never handed out again.
   */
  async delete(accountId: number, id: number): Promise<void> {
    const deleted = await this.db.deleteFrom('deployment').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw notFound(`Deployment ${id} not found`);
    await this.discardOutsideStore(id);
  }

  async versions(accountId: number, id: number) {
    const row = await this.row(accountId, id);
    return { items: versionList(this.config, row, await this.history.list(accountId)) };
  }

  async advanceStep(accountId: number, id: number, baseUrl: string) {
    const row = await this.row(accountId, id);
    return this.setStep(accountId, id, nextStep(row.creation_step, row.creation_method), baseUrl);
  }

  async resetStep(accountId: number, id: number, baseUrl: string) {
    await this.row(accountId, id);
    return this.setStep(accountId, id, FIRST_STEP, baseUrl);
  }

  regions() {
    return { items: this.config.regions.map((name) => ({ name })) };
  }

  private async setStep(accountId: number, id: number, step: string, baseUrl: string) {
    const row = await this.db
      .updateTable('deployment')
      .set({ creation_step: step, updated_at: new Date() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toView(row, baseUrl, this.config);
  }

  private recordRun(row: DeploymentRow) {
    const { version, channel } = inEffect(this.config, row);
    return this.history.record(row.account_id, row.id, { version, channel });
  }

  private async row(accountId: number, id: number): Promise<DeploymentRow> {
    const row = await this.find(accountId, id);
    if (!row) throw notFound(`Deployment ${id} not found`);
    return row;
  }

  private settingsView(row: DeploymentRow, baseUrl: string) {
    const effect = inEffect(this.config, row);
    return {
      ...toView(row, baseUrl, this.config),
      deployMode: row.deploy_mode as 'cli' | 'git' | null,
      creationMethod: row.creation_method as 'github' | 'upload' | 'ssh' | null,
      releaseChannel: effect.channel,
      releaseChannelVersion: effect.version,
      image: effect.image,
    };
  }

  /** A deployment's URL as its views show it; 404 for a deployment the account does not have. */
  async url(accountId: number, id: number, baseUrl: string): Promise<string> {
    const row = await this.find(accountId, id);
    if (!row) throw notFound(`Deployment ${id} not found`);
    return deploymentUrl(this.config, baseUrl, row);
  }

  /** The account a deployment host (`<slug>-<id>.<base domain>`) serves; the host names no account. */
  async accountOf(id: number): Promise<number | undefined> {
    return (await this.db.selectFrom('deployment').select('account_id').where('id', '=', id).executeTakeFirst())?.account_id;
  }

  find(accountId: number, id: number) {
    return this.db.selectFrom('deployment').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  /**
   * Locks the account's deployment row until the caller's transaction ends, so changes that must
   * not interleave (its variables, its folder tree) run one after the other. `no key update` does
   * not block inserts that refer to the row. False when the account has no such deployment.
   */
  async lock(accountId: number, id: number, strength: 'update' | 'no key update' = 'update'): Promise<boolean> {
    const query = this.db.selectFrom('deployment').select('id').where('account_id', '=', accountId).where('id', '=', id);
    const row = await (strength === 'update' ? query.forUpdate() : query.forNoKeyUpdate()).executeTakeFirst();
    return row !== undefined;
  }

  /** For inputs that name deployments (e.g. an API key's scope): every id must be the account's. */
  async assertAllExist(accountId: number, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    const found = await this.db.selectFrom('deployment').select('id').where('account_id', '=', accountId).where('id', 'in', ids).execute();
    const known = new Set(found.map((r) => r.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) throw badRequest(`Deployments not found: ${missing.join(', ')}`);
  }
}

export type UrlConfig = Pick<Config, 'baseDomain' | 'publicUrl'>;

/**
 * DESIGN.md: a deployment's URL is `{base_url}/d/{deploymentId}`, or with PLINTH_BASE_DOMAIN its own
 * host `<slug>-<id>.<base domain>` (http/deployment-hosts.ts serves it), in PLINTH_PUBLIC_URL's scheme.
 */
export function deploymentUrl(config: UrlConfig, baseUrl: string, deployment: Pick<DeploymentRow, 'id' | 'name'>): string {
  if (!config.baseDomain) return `${baseUrl}/d/${deployment.id}`;
  const publicUrl = config.publicUrl ? new URL(config.publicUrl) : undefined;
  const port = config.baseDomain.includes(':') || !publicUrl?.port ? '' : `:${publicUrl.port}`;
  return `${publicUrl?.protocol ?? 'http:'}//${deploymentLabel(deployment)}.${config.baseDomain}${port}`;
}

/**
 * `<slug>-<id>`: the name lowercased, other characters dashes, for people to read; the id alone
 * decides which deployment a host serves, so a renamed deployment's old host keeps working.
 */
export function deploymentLabel({ id, name }: Pick<DeploymentRow, 'id' | 'name'>): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  return slug ? `${slug}-${id}` : String(id);
}

function toView(row: DeploymentRow, baseUrl: string, config: UrlConfig): DeploymentView {
  return {
    id: row.id,
    name: row.name,
    region: row.region,
    deploymentUrl: deploymentUrl(config, baseUrl, row),
    creationStep: row.creation_step,
    createdAt: toIso(row.created_at),
  };
}
