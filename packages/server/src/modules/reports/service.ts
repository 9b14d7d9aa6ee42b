import { sql } from 'kysely';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import type { ContentPrincipal, Principal, UserPrincipal } from '../../http/principal.js';
import { isUniqueViolation } from '../../store/executor.js';
import { folderOfAccount } from '../folders/public.js';
import { workbookOfAccount } from '../workbooks/public.js';
import type { ServiceContext } from '../module.js';
import { contentAuthor } from '../resource-policies/public.js';
import { listReports, reportFolders } from './list.js';
import { refreshReport } from './refresh.js';
import { selectReports, toView, type ReportRecord } from './repo.js';
import type { CreateReportInput, ReportsQuery, ReportView, UpdateReportInput } from './schemas.js';
import { checkInput, nameOf, newPublicId } from './validate.js';

/** The item the content access decision judges (resource-policies' ContentItem). */
type ContentItem = Parameters<ServiceContext['services']['contentAccess']['demand']>[1];

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/**
 * Reports: saved queries of a deployment's workspace (issue 16). Who may do what is the content
 * access decision's (resource-policies/content-access.ts): a report is private to its creator
 * until shared; read needs ReportRead, update and refresh ReportEdit, delete ReportManage. A
 * creator-mode embed session makes and works on its embed tenant's reports only (no folders, no
 * refresh: its pages query the data API live, under each viewer's own policies).
 */
export class ReportService {
  constructor(readonly ctx: ServiceContext) {}

  private get access() {
    return this.ctx.services.contentAccess;
  }

  /** Users and creator-mode embed sessions act on content (the access decision tells them apart). */
  userOf(principal: Principal): ContentPrincipal {
    if (principal.kind !== 'apiKey' && principal.kind !== 'accessToken' && principal.kind !== 'embedToken') {
      throw forbidden('Reports belong to users: use an API key or access token');
    }
    return principal;
  }

  /** A refresh keeps one caller's answer for every reader: only a user's credential runs one. */
  private refresherOf(principal: Principal): UserPrincipal {
    if (principal.kind !== 'apiKey' && principal.kind !== 'accessToken') throw forbidden('Reports are refreshed by users: use an API key or access token');
    return principal;
  }

  /** Another account's deployment is the same 404 as a missing one. */
  async deployment(principal: Principal, deploymentId: number): Promise<void> {
    if (!(await this.ctx.services.deployments.find(principal.accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
  }

  async find(principal: Principal, deploymentId: number, reportId: number): Promise<ReportRecord> {
    await this.deployment(principal, deploymentId);
    const row = await selectReports(this.ctx.db)
      .where('report.id', '=', reportId)
      .where('report.deployment_id', '=', deploymentId)
      .where('report.account_id', '=', principal.accountId)
      .executeTakeFirst();
    if (!row) throw notFound(`Report ${reportId} not found`);
    return row as ReportRecord;
  }

  itemOf(row: ReportRecord): ContentItem {
    return {
      type: 'Report',
      id: row.id,
      deploymentId: row.deployment_id,
      ownerId: row.created_by,
      folderId: row.folder_id,
      workbookId: row.workbook_id,
      embedTenantId: row.embed_tenant_id,
    };
  }

  /** The report, after checking the caller holds `level` on it (404 when it may not even read it). */
  async demand(principal: Principal, deploymentId: number, reportId: number, level: 'Read' | 'Edit' | 'Manage') {
    const row = await this.find(principal, deploymentId, reportId);
    await this.access.demand(this.userOf(principal), this.itemOf(row), level);
    return row;
  }

  async get(principal: Principal, deploymentId: number, reportId: number): Promise<ReportView> {
    return toView(await this.demand(principal, deploymentId, reportId, 'Read'), true);
  }

  async list(principal: Principal, deploymentId: number, query: ReportsQuery) {
    await this.deployment(principal, deploymentId);
    return listReports(this.ctx, this.userOf(principal), deploymentId, query);
  }

  async folders(principal: Principal, deploymentId: number) {
    await this.deployment(principal, deploymentId);
    return reportFolders(this.ctx, this.userOf(principal), deploymentId);
  }

  async create(principal: Principal, deploymentId: number, input: CreateReportInput): Promise<ReportView> {
    const user = this.userOf(principal);
    await this.deployment(principal, deploymentId);
    checkInput(input);
    if (input.folderId) await this.demandContainer(user, deploymentId, 'Folder', input.folderId);
    if (input.workbookId) await this.demandContainer(user, deploymentId, 'Workbook', input.workbookId);
    const author = contentAuthor(user);
    const given = input.publicId ?? null;
    for (let attempt = 0; ; attempt += 1) {
      const publicId = given ?? newPublicId();
      try {
        const { id } = await this.ctx.db
          .insertInto('report')
          .values({
            account_id: principal.accountId,
            deployment_id: deploymentId,
            folder_id: input.folderId ?? null,
            workbook_id: input.workbookId ?? null,
            public_id: publicId,
            name: nameOf(input),
            title: input.title ?? null,
            description: input.description ?? null,
            source: input.source ?? null,
            json_query: input.jsonQuery ?? null,
            sql_query: input.sqlQuery ?? null,
            pivot_items: json(input.pivotItems),
            meta: json(input.meta),
            end_result_cell: input.endResultCell ?? null,
            external_workbook_id: input.externalWorkbookId ?? null,
            result_location: input.resultLocation ?? null,
            embed_tenant_id: author.embedTenantId,
            created_by: author.userId,
            updated_by: author.userId,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return toView(await this.find(principal, deploymentId, id), true);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (given !== null) throw conflict(`publicId ${given} is taken by another report: choose another, or leave it out`);
        if (attempt >= 3) throw error;
      }
    }
  }

  async update(principal: Principal, deploymentId: number, reportId: number, input: UpdateReportInput): Promise<ReportView> {
    const user = this.userOf(principal);
    const row = await this.demand(principal, deploymentId, reportId, 'Edit');
    checkInput(input, row);
    // Moving into a folder or workbook needs Edit there; out of one, to the root, DeploymentRead (the route's).
    if (input.folderId && input.folderId !== row.folder_id) await this.demandContainer(user, deploymentId, 'Folder', input.folderId);
    if (input.workbookId && input.workbookId !== row.workbook_id) {
      await this.demandContainer(user, deploymentId, 'Workbook', input.workbookId);
    }
    const set = {
      ...(input.name !== undefined ? { name: input.name!.trim() } : {}),
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.jsonQuery !== undefined ? { json_query: input.jsonQuery } : {}),
      ...(input.sqlQuery !== undefined ? { sql_query: input.sqlQuery } : {}),
      ...(input.pivotItems !== undefined ? { pivot_items: json(input.pivotItems) } : {}),
      ...(input.meta !== undefined ? { meta: json(input.meta) } : {}),
      ...(input.folderId !== undefined ? { folder_id: input.folderId } : {}),
      ...(input.workbookId !== undefined ? { workbook_id: input.workbookId } : {}),
      ...(input.endResultCell !== undefined ? { end_result_cell: input.endResultCell } : {}),
      ...(input.externalWorkbookId !== undefined ? { external_workbook_id: input.externalWorkbookId } : {}),
      ...(input.resultLocation !== undefined ? { result_location: input.resultLocation } : {}),
    };
    await this.ctx.db
      .updateTable('report')
      .set({ ...set, updated_by: contentAuthor(user).userId, updated_at: sql`now()`, version: sql`version + 1` } as never)
      .where('id', '=', row.id)
      .execute();
    return toView(await this.find(principal, deploymentId, reportId), true);
  }

  async remove(principal: Principal, deploymentId: number, reportId: number) {
    const row = await this.demand(principal, deploymentId, reportId, 'Manage');
    await this.ctx.db.deleteFrom('report').where('id', '=', row.id).execute();
    return { id: row.id, deleted: true as const };
  }

  async refresh(principal: Principal, deploymentId: number, reportId: number): Promise<ReportView> {
    const user = this.refresherOf(principal);
    const row = await this.demand(principal, deploymentId, reportId, 'Edit');
    await refreshReport(this.ctx, user, row);
    return toView(await this.find(principal, deploymentId, reportId), true);
  }

  /** A folder or workbook of this deployment that the caller may put a report in (404 when it may not even read it). */
  private async demandContainer(user: ContentPrincipal, deploymentId: number, type: 'Folder' | 'Workbook', id: number) {
    const found =
      type === 'Folder' ? await folderOfAccount(this.ctx.db, user.accountId, id) : await workbookOfAccount(this.ctx.db, user.accountId, id);
    const row = found?.deployment_id === deploymentId ? found : undefined;
    if (!row) throw notFound(`${type} ${id} not found in deployment ${deploymentId}`);
    const embedTenantId = (row as { embed_tenant_id?: number | null }).embed_tenant_id ?? null;
    await this.access.demand(user, { type, id, deploymentId, ownerId: row.created_by, folderId: row.folder_id, embedTenantId }, 'Edit');
  }
}
