import type { Static } from '@sinclair/typebox';
import { badRequest, notFound } from '../../http/errors.js';
import { byId, decodeCursor, pageSize, toPage, type Page } from '../../http/pagination.js';
import type { ContentPrincipal } from '../../http/principal.js';
import type { WorkbookRow } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import type { ServiceContext } from '../module.js';
import { contentAuthor, type ContentItem } from '../resource-policies/public.js';
import { copyReports, copyName } from './copy.js';
import { WorkbookRepo } from './repo.js';
import { MAX_WORKBOOK_NAME, type CreateWorkbookInput, type UpdateWorkbookInput } from './schemas.js';
import { checkCalculatedFields, type CalculatedFieldValue } from './validate.js';
import { workbookView, type WorkbookView } from './views.js';

type CreateInput = Static<typeof CreateWorkbookInput>;
type UpdateInput = Static<typeof UpdateWorkbookInput>;
export const DEFAULT_WORKBOOK_NAME = 'Untitled workbook';
const ORDER = byId('workbooks');

/** The workbook as content access sees it. */
export const itemOf = (row: WorkbookRow): ContentItem => ({
  type: 'Workbook',
  id: row.id,
  deploymentId: row.deployment_id,
  ownerId: row.created_by,
  folderId: row.folder_id,
  embedTenantId: row.embed_tenant_id,
});

/**
 * Workbooks of a deployment (issue 16): private to their creator until shared (content-access.ts).
 * Reading needs Read, changing Edit, deleting Manage; creating at the root needs DeploymentRead
 * (the route's), creating in or moving into a folder needs FolderEdit on it. A creator-mode embed
 * session makes its embed tenant's workbooks (at the root: folders are the account's), and its
 * tenant's sessions are the only ones that see them.
 */
export class WorkbookService {
  readonly repo: WorkbookRepo;

  constructor(private readonly ctx: ServiceContext) {
    this.repo = new WorkbookRepo(ctx.db);
  }

  private get access() {
    return this.ctx.services.contentAccess;
  }

  async list(principal: ContentPrincipal, deploymentId: number, query: { folderId?: number | null; first?: number; after?: string }) {
    await this.assertDeployment(principal.accountId, deploymentId);
    const after = decodeCursor(ORDER, query.after)?.id;
    const scope = await this.access.readScope(principal, deploymentId, 'Workbook');
    const folderId = query.folderId === 0 ? null : query.folderId;
    const rows = await this.repo.list(deploymentId, this.access.readable('workbook', scope), folderId, after, pageSize(query) + 1);
    const published = await this.repo.published(rows.map((r) => r.id));
    const page: Page<WorkbookView> = toPage(ORDER, rows, query, (row) => workbookView(row, published.get(row.id)));
    return { items: page.items, data: page.items, count: page.items.length, pageInfo: page.pageInfo };
  }

  /** The workbook, after checking the principal holds `level` on it (404 when it may not read it). */
  async demand(principal: ContentPrincipal, deploymentId: number, id: number, level: 'Read' | 'Edit' | 'Manage'): Promise<WorkbookRow> {
    await this.assertDeployment(principal.accountId, deploymentId);
    const row = await this.repo.find(principal.accountId, deploymentId, id);
    if (!row) throw notFound(`Workbook ${id} not found`);
    await this.access.demand(principal, itemOf(row), level);
    return row;
  }

  async get(principal: ContentPrincipal, deploymentId: number, id: number): Promise<WorkbookView> {
    return this.view(await this.demand(principal, deploymentId, id, 'Read'));
  }

  async view(row: WorkbookRow): Promise<WorkbookView> {
    return workbookView(row, (await this.repo.published([row.id])).get(row.id));
  }

  async create(principal: ContentPrincipal, deploymentId: number, input: CreateInput): Promise<WorkbookView> {
    await this.assertDeployment(principal.accountId, deploymentId);
    const folderId = input.folderId ?? null;
    if (folderId !== null) await this.demandFolder(principal, deploymentId, folderId);
    const fields = input.calculatedFields ?? {};
    checkCalculatedFields(fields);
    const author = contentAuthor(principal);
    const row = await this.ctx.db
      .insertInto('workbook')
      .values({
        account_id: principal.accountId,
        deployment_id: deploymentId,
        folder_id: folderId,
        name: nameOf(input.name) ?? DEFAULT_WORKBOOK_NAME,
        meta: JSON.stringify(input.meta ?? {}),
        calculated_fields: JSON.stringify(fields),
        embed_tenant_id: author.embedTenantId,
        created_by: author.userId,
        updated_by: author.userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return workbookView(row, undefined);
  }

  async update(principal: ContentPrincipal, deploymentId: number, id: number, input: UpdateInput): Promise<WorkbookView> {
    const row = await this.demand(principal, deploymentId, id, 'Edit');
    const moves = input.folderId !== undefined && input.folderId !== row.folder_id;
    if (moves && input.folderId !== null) await this.demandFolder(principal, deploymentId, input.folderId!);
    if (input.calculatedFields) checkCalculatedFields(input.calculatedFields as Record<string, CalculatedFieldValue>);
    const name = nameOf(input.name);
    const updated = await this.ctx.db
      .updateTable('workbook')
      .set({
        ...(name !== undefined ? { name } : {}),
        ...(input.meta !== undefined ? { meta: JSON.stringify(input.meta ?? {}) } : {}),
        ...(input.calculatedFields !== undefined ? { calculated_fields: JSON.stringify(input.calculatedFields) } : {}),
        ...(moves ? { folder_id: input.folderId ?? null } : {}),
        updated_by: contentAuthor(principal).userId,
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw notFound(`Workbook ${id} not found`);
    return this.view(updated);
  }

  /** Its reports, dashboard and dashboard versions go with it (foreign keys cascade). */
  async delete(principal: ContentPrincipal, deploymentId: number, id: number) {
    await this.demand(principal, deploymentId, id, 'Manage');
    await this.ctx.db.deleteFrom('workbook').where('id', '=', id).execute();
    return { id, deleted: true as const };
  }

  /**
   * A copy owned by the caller: name "<name> (copy)" (numbered when taken), meta, calculated
   * fields, reports and the draft (its charts pointed at the copied reports); not the published
   * dashboard. It goes into the source's folder when the caller may edit that folder, else to the root.
   */
  async duplicate(principal: ContentPrincipal, deploymentId: number, id: number): Promise<WorkbookView> {
    const source = await this.demand(principal, deploymentId, id, 'Read');
    let folderId = source.folder_id;
    if (folderId !== null) {
      const folder = await this.repo.folder(deploymentId, folderId);
      const held = folder ? await this.access.actionsOn(principal, folderItem(deploymentId, folder)) : new Set();
      if (!held.has('FolderEdit')) folderId = null;
    }
    const author = contentAuthor(principal);
    const copy = await transaction(this.ctx.db, async (db) => {
      // Names are unique within what the copy's readers see: the account's content, or one tenant's.
      const taken = await db
        .selectFrom('workbook')
        .select('name')
        .where('deployment_id', '=', deploymentId)
        .where('embed_tenant_id', source.embed_tenant_id === null ? 'is' : '=', source.embed_tenant_id)
        .execute();
      const row = await db
        .insertInto('workbook')
        .values({
          account_id: principal.accountId,
          deployment_id: deploymentId,
          folder_id: folderId,
          name: copyName(source.name, new Set(taken.map((t) => t.name.toLowerCase())), MAX_WORKBOOK_NAME),
          meta: JSON.stringify(source.meta ?? {}),
          calculated_fields: JSON.stringify(source.calculated_fields ?? {}),
          // The copy stays where its source is: a tenant's workbook copies into the same tenant.
          embed_tenant_id: source.embed_tenant_id,
          created_by: author.userId,
          updated_by: author.userId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const draft = await copyReports(db, source, row, author.userId);
      if (draft === null) return row;
      return db
        .updateTable('workbook')
        .set({ dashboard_draft: JSON.stringify(draft) })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return workbookView(copy, undefined);
  }

  async assertDeployment(accountId: number, deploymentId: number): Promise<void> {
    if (!(await this.ctx.services.deployments.find(accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
  }

  private async demandFolder(principal: ContentPrincipal, deploymentId: number, folderId: number): Promise<void> {
    const folder = await this.repo.folder(deploymentId, folderId);
    if (!folder) throw notFound(`Folder ${folderId} not found`);
    await this.access.demand(principal, folderItem(deploymentId, folder), 'Edit');
  }
}

const folderItem = (deploymentId: number, folder: { id: number; parent_id: number | null; created_by: number | null }): ContentItem => ({
  type: 'Folder',
  id: folder.id,
  deploymentId,
  ownerId: folder.created_by,
  folderId: folder.parent_id,
  embedTenantId: null,
});

/** A name as given, trimmed; undefined when not given; a blank one is refused. */
function nameOf(name: string | null | undefined): string | undefined {
  if (name === undefined || name === null) return undefined;
  const trimmed = name.trim();
  if (trimmed === '') throw badRequest('name: must not be blank');
  return trimmed;
}
