import type { Kysely } from 'kysely';
import { deploymentScope } from '../../http/authorize.js';
import { badRequest, notFound } from '../../http/errors.js';
import { byId, decodeCursor, pageSize, toPage, type PageQuery } from '../../http/pagination.js';
import type { Principal } from '../../http/principal.js';
import { toIso } from '../../http/common-schemas.js';
import type { Database, DeploymentRow } from '../../store/schema.js';
import { afterId } from '../../store/keyset.js';

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
export class DeploymentService {
  constructor(private readonly db: Kysely<Database>) {}

  async create(accountId: number, input: { name: string; region?: string | undefined }, baseUrl: string) {
    const row = await this.db
      .insertInto('deployment')
      .values({ account_id: accountId, name: input.name, region: input.region ?? null })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toView(row, baseUrl);
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
    return toPage(DEPLOYMENTS, rows, query, (row) => toView(row, baseUrl));
  }

  /** The route's declaration has checked the caller's scope, before anything says whether `id` exists. */
  async get(principal: Principal, id: number, baseUrl: string): Promise<DeploymentView> {
    const row = await this.find(principal.accountId, id);
    if (!row) throw notFound(`Deployment ${id} not found`);
    return toView(row, baseUrl);
  }

  find(accountId: number, id: number) {
    return this.db.selectFrom('deployment').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
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

/** DESIGN.md: a deployment's URL is `{base_url}/d/{deploymentId}` unless a host template says otherwise. */
export function deploymentUrl(baseUrl: string, id: number): string {
  return `${baseUrl}/d/${id}`;
}

function toView(row: DeploymentRow, baseUrl: string): DeploymentView {
  return {
    id: row.id,
    name: row.name,
    region: row.region,
    deploymentUrl: deploymentUrl(baseUrl, row.id),
    creationStep: row.creation_step,
    createdAt: toIso(row.created_at),
  };
}
