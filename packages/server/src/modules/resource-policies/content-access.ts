import { sql, type ExpressionBuilder, type Kysely, type RawBuilder } from 'kysely';
import { forbidden, notFound } from '../../http/errors.js';
import { deploymentScope, holds } from '../../http/authorize.js';
import { implied, type Permission } from '../../http/permissions.js';
import type { ContentPrincipal, Principal } from '../../http/principal.js';
import type { Database } from '../../store/schema.js';
import { folderChain, foldersCreatedBy, folderSubtrees, type FolderRef } from '../folders/public.js';
import { groupIdsOfUser } from '../groups/public.js';
import { workbookById, workbookIdsWhere } from '../workbooks/public.js';

/** The resource types of workspace content, as resource policies name them. */
export const CONTENT_TYPES = ['Folder', 'Report', 'Workbook', 'Dashboard'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/**
 * One item of workspace content, as far as access cares. `folderId` is where it sits (a folder's
 * parent, for a folder); a dashboard is reached through its workbook (`workbookId`), whose owner,
 * folder and policies it shares; a report in a workbook (`workbookId`) is also reached through it:
 * what a principal holds on the workbook it holds on the workbook's reports, level for level.
 */
export interface ContentItem {
  type: ContentType;
  id: number;
  deploymentId: number;
  ownerId: number | null;
  folderId: number | null;
  workbookId?: number | null;
  /**
   * The embed tenant whose creator-mode session made it (null for the account's own content):
   * such an item is its tenant's alone, out of every user's and every policy's reach.
   */
  embedTenantId: number | null;
}

/** The action family of each type: `Read`, `Edit`, `Manage` of it. A dashboard is its workbook's. */
const FAMILY: Record<ContentType, 'Folder' | 'Report' | 'Workbook'> = {
  Folder: 'Folder',
  Report: 'Report',
  Workbook: 'Workbook',
  Dashboard: 'Workbook',
};

export type ContentLevel = 'Read' | 'Edit' | 'Manage';
export const contentPermission = (type: ContentType, level: ContentLevel) => `${FAMILY[type]}${level}` as Permission;

const LEVELS: readonly ContentLevel[] = ['Read', 'Edit', 'Manage'];
/**
 * The content actions that can bear on an item of each type: a folder's reach its reports and
 * workbooks too (a Deployment policy of ReportRead lets its holder read every report in a folder,
 * so grant ReportRead on that folder).
 */
const BEARING: Record<ContentType, readonly Permission[]> = {
  Folder: (['Folder', 'Report', 'Workbook'] as const).flatMap((f) => LEVELS.map((l) => `${f}${l}` as Permission)),
  Report: LEVELS.map((l) => `Report${l}` as Permission),
  Workbook: LEVELS.map((l) => `Workbook${l}` as Permission),
  Dashboard: LEVELS.map((l) => `Workbook${l}` as Permission),
};
/** Every content action; what `actionsOn` answers is within these. */
export const CONTENT_ACTIONS: ReadonlySet<Permission> = new Set(BEARING.Folder);

/**
 * Which items of one type a principal may read in a deployment, for a list's WHERE clause:
 * everything, nothing, or those it owns, those below the folders it reaches and those shared with it.
 */
export type ReadScope =
  | { kind: 'all' }
  | { kind: 'none' }
  /** A creator-mode embed session: everything of its embed tenant, nothing else. */
  | { kind: 'tenant'; embedTenantId: number }
  | {
      kind: 'some';
      /** The principal's user, whose own items it reads; null for a credential that reads none by ownership. */
      ownerId: number | null;
      folderIds: readonly number[];
      itemIds: readonly number[];
      /** Reports only: the workbooks whose reports it reads, as a scope over `workbook`. */
      workbooks?: ReadScope;
    };

/**
 * Whether a credential acts on a deployment's content at all: only a user's credentials (API keys,
 * access tokens) do, within their deployments. Not a permission: a key with its own ReportRead
 * reads reports without DeploymentRead.
 */
function reaches(principal: Principal, deploymentId: number): boolean {
  if (principal.kind !== 'apiKey' && principal.kind !== 'accessToken') return false;
  const scope = deploymentScope(principal);
  return scope === null || scope.includes(deploymentId);
}

/** Every content action but the folders': what a creator-mode session holds on its tenant's content. */
const TENANT_ACTIONS: ReadonlySet<Permission> = implied(['WorkbookManage', 'ReportManage']);

/** The embed tenant whose content a principal works on: a creator-mode embed token's, in its own deployment. */
function creatorTenant(principal: Principal, deploymentId: number): number | null {
  if (principal.kind !== 'embedToken' || principal.claims.creatorMode !== true) return null;
  return principal.claims.deploymentId === deploymentId ? principal.claims.embedTenantId : null;
}

/**
 * What content a principal makes is stamped with: its user (an internal user's session in creator
 * mode acts for that user too; an external user is no user of the account) and, for a creator-mode
 * session, its embed tenant, which the content then belongs to.
 */
export function contentAuthor(principal: ContentPrincipal): { userId: number | null; embedTenantId: number | null } {
  if (principal.kind !== 'embedToken') return { userId: principal.userId, embedTenantId: null };
  const user = principal.claims.user;
  return { userId: user.type === 'internal' ? user.id : null, embedTenantId: principal.claims.embedTenantId };
}

interface Subjects {
  userId: number;
  groupIds: number[];
}

/**
 * Who may do what on workspace content (issue 16). A principal holds an action on an item when:
 * its credential holds it on the deployment (role: admins hold everything; or a `Global`/`Deployment`
 * policy of its user or the user's groups, read from the store for API keys of a role too); or the item's creator is its user (Manage); or a policy of its user or of one of
 * the user's groups names the item, its workbook (for a dashboard) or a folder above it; or its
 * user created a folder above it (Manage on the folder, so on what is in it). Folder actions reach
 * content through the implication table (FolderRead ⇒ ReportRead, WorkbookRead). An API key with
 * its own permissions holds exactly those, on the deployment level; other credential kinds hold no
 * content. The decision reads the store on every call, so a revoked policy holds from the next request.
 */
export class ContentAccess {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every permission the principal holds on the item, closed under the implication table. */
  async actionsOn(principal: Principal, item: ContentItem): Promise<ReadonlySet<Permission>> {
    const held = new Set<Permission>();
    // An embed tenant's content is its creator-mode sessions' alone, whatever users and policies hold.
    if (item.embedTenantId !== null) {
      return creatorTenant(principal, item.deploymentId) === item.embedTenantId ? new Set(TENANT_ACTIONS) : held;
    }
    // Out of the credential's reach (a key limited to other deployments): not even a creator's rights apply.
    if (!reaches(principal, item.deploymentId)) return held;
    if (item.type === 'Report' && item.workbookId) for (const p of await this.throughWorkbook(principal, item.workbookId)) held.add(p);
    // Closed under the implication table, as the policy-given actions below are.
    for (const p of implied(BEARING[item.type].filter((permission) => holds(principal, permission, item.deploymentId)))) held.add(p);
    const subjects = this.subjectsOf(principal);
    if (!subjects) return held;
    const { userId, groupIds } = await subjects;
    if (item.ownerId === userId) for (const p of implied([contentPermission(item.type, 'Manage')])) held.add(p);
    const folders = await this.folderChain(item.type === 'Folder' ? item.id : item.folderId);
    if (folders.some((folder) => folder.created_by === userId)) for (const p of implied(['FolderManage'])) held.add(p);
    const resources: { type: string; id: number }[] = [{ type: item.type, id: item.id }, ...this.above(item.deploymentId)];
    if (item.type === 'Dashboard' && item.workbookId) resources.push({ type: 'Workbook', id: item.workbookId });
    for (const folder of folders) resources.push({ type: 'Folder', id: folder.id });
    const actions = await this.policyActions(principal.accountId, { userId, groupIds }, resources);
    // Global and Deployment policies name other actions too (SchemaRead, …): only content ones count here.
    for (const p of implied(actions)) if (CONTENT_ACTIONS.has(p)) held.add(p);
    return held;
  }

  /** The report actions a principal holds on a workbook's reports: its workbook actions, level for level. */
  private async throughWorkbook(principal: Principal, workbookId: number): Promise<Permission[]> {
    const workbook = await workbookById(this.db, workbookId);
    if (!workbook) return [];
    const onWorkbook = await this.actionsOn(principal, {
      type: 'Workbook',
      id: workbook.id,
      deploymentId: workbook.deployment_id,
      ownerId: workbook.created_by,
      folderId: workbook.folder_id,
      embedTenantId: workbook.embed_tenant_id,
    });
    return [...implied(LEVELS.filter((level) => onWorkbook.has(`Workbook${level}` as Permission)).map((level) => `Report${level}`))];
  }

  /**
   * The account and the deployment, as policies name them. An access token already carries their
   * actions; an API key of a role does not (its user's policies do not widen what it does on a
   * deployment), but content rights follow the user, so they are read here for both alike.
   */
  private above(deploymentId: number) {
    return [
      { type: 'Global', id: 0 },
      { type: 'Deployment', id: deploymentId },
    ];
  }

  /**
   * Throws unless the principal holds `level` on the item: a 404 when it may not even read it (so
   * an item is not revealed by its id), else a 403 naming the permission.
   */
  async demand(principal: Principal, item: ContentItem, level: ContentLevel): Promise<void> {
    const held = await this.actionsOn(principal, item);
    if (!held.has(contentPermission(item.type, 'Read'))) throw notFound(`${item.type} ${item.id} not found`);
    const permission = contentPermission(item.type, level);
    if (!held.has(permission)) {
      throw forbidden(`This credential does not grant ${permission} on ${item.type.toLowerCase()} ${item.id}`);
    }
  }

  /** What the principal may read of one type in a deployment (see ReadScope and `readable`). */
  async readScope(principal: Principal, deploymentId: number, type: Exclude<ContentType, 'Dashboard'>): Promise<ReadScope> {
    if (principal.kind === 'embedToken') {
      const tenant = creatorTenant(principal, deploymentId);
      return tenant === null || type === 'Folder' ? { kind: 'none' } : { kind: 'tenant', embedTenantId: tenant };
    }
    const own = await this.ownReadScope(principal, deploymentId, type);
    if (type !== 'Report' || own.kind === 'all' || own.kind === 'tenant') return own;
    // A report is also read through its workbook (see ContentItem).
    const workbooks = await this.ownReadScope(principal, deploymentId, 'Workbook');
    if (workbooks.kind === 'none' || workbooks.kind === 'tenant') return own;
    const base = own.kind === 'some' ? own : { kind: 'some' as const, ownerId: null, folderIds: [], itemIds: [] };
    return { ...base, workbooks };
  }

  private async ownReadScope(principal: Principal, deploymentId: number, type: Exclude<ContentType, 'Dashboard'>): Promise<ReadScope> {
    if (!reaches(principal, deploymentId)) return { kind: 'none' };
    if (holds(principal, contentPermission(type, 'Read'), deploymentId)) return { kind: 'all' };
    const subjects = this.subjectsOf(principal);
    if (!subjects) return { kind: 'none' };
    const { userId, groupIds } = await subjects;
    const readsType = (action: string) => implied([action]).has(contentPermission(type, 'Read'));
    const policies = await this.policiesOf(principal.accountId, { userId, groupIds }, [type, 'Folder'], this.above(deploymentId));
    if (policies.some((p) => (p.resource_type === 'Global' || p.resource_type === 'Deployment') && readsType(p.action))) {
      return { kind: 'all' };
    }
    const itemIds = policies.filter((p) => p.resource_type === type && readsType(p.action)).map((p) => p.resource_id);
    const roots = policies.filter((p) => p.resource_type === 'Folder' && readsType(p.action)).map((p) => p.resource_id);
    const owned = await foldersCreatedBy(this.db, deploymentId, userId);
    const folderIds = await folderSubtrees(this.db, deploymentId, [...roots, ...owned]);
    return { kind: 'some', ownerId: userId, folderIds, itemIds };
  }

  /**
   * The WHERE condition of a ReadScope over one content table (`folder`, `report`, `workbook`):
   * for folders the folder itself counts as "below" a folder it reaches. An embed tenant's reports
   * and workbooks are in a tenant's scope only, never in a user's (folders are never a tenant's).
   */
  readable(table: 'folder' | 'report' | 'workbook', scope: ReadScope): RawBuilder<boolean> {
    if (scope.kind === 'none') return sql<boolean>`false`;
    const col = (name: string) => sql.ref(`${table}.${name}`);
    if (scope.kind === 'tenant') {
      return table === 'folder' ? sql<boolean>`false` : sql<boolean>`${col('embed_tenant_id')} = ${scope.embedTenantId}`;
    }
    const users = this.usersReadable(table, scope);
    return table === 'folder' ? users : sql<boolean>`(${col('embed_tenant_id')} is null and ${users})`;
  }

  private usersReadable(
    table: 'folder' | 'report' | 'workbook',
    scope: Exclude<ReadScope, { kind: 'none' | 'tenant' }>,
  ): RawBuilder<boolean> {
    if (scope.kind === 'all') return sql<boolean>`true`;
    const col = (name: string) => sql.ref(`${table}.${name}`);
    const where = table === 'folder' ? 'id' : 'folder_id';
    const terms = [];
    if (scope.ownerId !== null) terms.push(sql<boolean>`${col('created_by')} = ${scope.ownerId}`);
    if (scope.folderIds.length) terms.push(sql<boolean>`${col(where)} in (${sql.join(scope.folderIds)})`);
    if (scope.itemIds.length) terms.push(sql<boolean>`${col('id')} in (${sql.join(scope.itemIds)})`);
    if (table === 'report' && scope.workbooks) {
      terms.push(sql<boolean>`${col('workbook_id')} in ${workbookIdsWhere(this.readable('workbook', scope.workbooks))}`);
    }
    return terms.length ? sql<boolean>`(${sql.join(terms, sql` or `)})` : sql<boolean>`false`;
  }

  /** The folder and every folder above it, nearest first (the folders module reads its tree). */
  folderChain(folderId: number | null): Promise<FolderRef[]> {
    return folderChain(this.db, folderId);
  }

  /** The user (and groups) a credential acts for, when content rights beyond its credential apply. */
  private subjectsOf(principal: Principal): Promise<Subjects> | null {
    if (principal.kind !== 'accessToken' && principal.kind !== 'apiKey') return null;
    if (principal.kind === 'apiKey' && principal.permissions) return null;
    const userId = principal.userId;
    return groupIdsOfUser(this.db, userId).then((groupIds) => ({ userId, groupIds }));
  }

  private async policyActions(accountId: number, subjects: Subjects, resources: readonly { type: string; id: number }[]) {
    const rows = await this.db
      .selectFrom('resource_policy')
      .select('action')
      .where('account_id', '=', accountId)
      .where((eb) => eb.or(resources.map((r) => eb.and([eb('resource_type', '=', r.type), eb('resource_id', '=', r.id)]))))
      .where((eb) => this.subjectFilter(eb, subjects))
      .execute();
    return rows.map((r) => r.action);
  }

  /** The subjects' policies on every resource of the given types, and on the given resources. */
  private policiesOf(accountId: number, subjects: Subjects, types: readonly string[], resources: readonly { type: string; id: number }[]) {
    return this.db
      .selectFrom('resource_policy')
      .select(['resource_type', 'resource_id', 'action'])
      .where('account_id', '=', accountId)
      .where((eb) =>
        eb.or([
          eb('resource_type', 'in', types),
          ...resources.map((r) => eb.and([eb('resource_type', '=', r.type), eb('resource_id', '=', r.id)])),
        ]),
      )
      .where((eb) => this.subjectFilter(eb, subjects))
      .execute();
  }

  private subjectFilter(eb: ExpressionBuilder<Database, 'resource_policy'>, { userId, groupIds }: Subjects) {
    const mine = eb('user_id', '=', userId);
    return groupIds.length ? eb.or([mine, eb('group_id', 'in', groupIds)]) : mine;
  }
}
