import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { ContentPrincipal, Principal } from '../../http/principal.js';
import type { WorkbookRow } from '../../store/schema.js';
import { transactionWithRetry } from '../../store/transaction.js';
import type { ServiceContext } from '../module.js';
import { assertMayOpenDashboard } from '../embed/public.js';
import type { PublishDashboardInput } from './dashboard-schemas.js';
import { WorkbookRepo } from './repo.js';
import { itemOf, type WorkbookService } from './service.js';
import { contentAuthor, type ContentItem } from '../resource-policies/public.js';
import { checkDashboard, type DashboardConfigValue } from './validate.js';
import { dashboardView, json, reportSnapshot, type DashboardView } from './views.js';

type PublishInput = Static<typeof PublishDashboardInput>;

/**
 * A workbook's dashboard (issue 16): a draft kept on the workbook, and the dashboard it publishes.
 * The Dashboard row is made by the first publish, with a `publicId` kept from then on; each
 * publish freezes the draft into a new version (`versionNumber` 1, 2, …). Status: `published`
 * after a publish, `archived` when archived (publishDashboard with `status: archived`); Plinth
 * stores no dashboard before the first publish, so `draft` is never a stored dashboard's status.
 * Embedding is off until a Manage-holder turns it on, and only a published dashboard embeds.
 */
export class DashboardService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly workbooks: WorkbookService,
  ) {}

  private get repo() {
    return this.workbooks.repo;
  }

  async updateDraft(principal: ContentPrincipal, deploymentId: number, workbookId: number, draft: DashboardConfigValue | null) {
    const row = await this.workbooks.demand(principal, deploymentId, workbookId, 'Edit');
    if (draft) await this.check(row, draft, 'dashboardDraft');
    const updated = await this.ctx.db
      .updateTable('workbook')
      .set({
        dashboard_draft: draft === null ? null : JSON.stringify(draft),
        updated_by: contentAuthor(principal).userId,
        updated_at: new Date(),
      })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const view = await this.workbooks.view(updated);
    return { dashboardDraft: view.dashboardDraft, dashboardPublished: view.dashboardPublished };
  }

  async publish(principal: ContentPrincipal, deploymentId: number, workbookId: number, input: PublishInput): Promise<DashboardView> {
    if (input.workbookId !== workbookId) {
      throw badRequest(`workbookId: ${input.workbookId} is not the workbook of the path (${workbookId})`);
    }
    const row = await this.workbooks.demand(principal, deploymentId, workbookId, 'Edit');
    if (input.status === 'archived') return this.archive(row, input.dashboardId ?? null);
    const config = input.config ?? json<DashboardConfigValue | null>(row.dashboard_draft);
    if (!config) {
      throw badRequest(`Workbook ${workbookId} has no dashboard draft to publish: save one with updateWorkbookDashboard, or send config`);
    }
    const reportIds = await this.check(row, config, input.config ? 'config' : 'dashboardDraft');
    const snapshots = (await this.repo.reportsOf(row.id, reportIds)).map(reportSnapshot);
    const title = input.title ?? config.title ?? null;
    const author = contentAuthor(principal);
    const description = input.description ?? config.description ?? null;

    // The lock and the next number are read in the transaction, so concurrent publishes queue on
    // the dashboard row and each answers with the version it made (a first publish's racing insert
    // of the dashboard fails on its unique workbook and is retried, then finds the row).
    const published = await transactionWithRetry(this.ctx.db, async (db) => {
      const repo = new WorkbookRepo(db);
      let dashboard = await repo.dashboardForUpdate(row.id);
      if (input.dashboardId != null && input.dashboardId !== dashboard?.id) {
        throw badRequest(`dashboardId: ${input.dashboardId} is not the dashboard of workbook ${workbookId}`);
      }
      dashboard ??= await db
        .insertInto('dashboard')
        .values({
          account_id: row.account_id,
          deployment_id: row.deployment_id,
          workbook_id: row.id,
          public_id: randomUUID(),
          status: 'published',
          // A tenant's dashboard is for its tenant's sessions to open: embedding is on from the
          // start (its creators may turn it off); the account's own stays off until allowed.
          allow_embed: row.embed_tenant_id !== null,
          embed_tenant_id: row.embed_tenant_id,
          title,
          description,
          created_by: author.userId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const version = await db
        .insertInto('dashboard_version')
        .values({
          dashboard_id: dashboard.id,
          version_number: await repo.nextVersionNumber(dashboard.id),
          title,
          description,
          config: JSON.stringify(config),
          report_snapshots: JSON.stringify(snapshots),
          published_by: author.userId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const updated = await db
        .updateTable('dashboard')
        .set({ status: 'published', title, description, updated_at: new Date() })
        .where('id', '=', dashboard.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { dashboard: updated, version };
    });
    return dashboardView(published);
  }

  /** Turns embedding of a published dashboard on or off; needs Manage on its workbook (admins hold it). */
  async setEmbedAccess(principal: ContentPrincipal, deploymentId: number, publicId: string, allowEmbed: boolean): Promise<DashboardView> {
    await this.workbooks.assertDeployment(principal.accountId, deploymentId);
    const found = await this.repo.byPublicId(principal.accountId, publicId);
    if (!found || found.dashboard.deployment_id !== deploymentId) throw notFound(`Dashboard ${publicId} not found`);
    const workbook = await this.repo.find(principal.accountId, deploymentId, found.dashboard.workbook_id);
    if (!workbook) throw notFound(`Dashboard ${publicId} not found`);
    await this.ctx.services.contentAccess.demand(principal, dashboardItem(found.dashboard.id, workbook), 'Manage');
    if (allowEmbed && found.dashboard.status !== 'published') {
      throw conflict(`Dashboard ${publicId} is ${found.dashboard.status}: only a published dashboard can be embedded; publish it first`);
    }
    await this.ctx.db
      .updateTable('dashboard')
      .set({ allow_embed: allowEmbed, updated_at: new Date() })
      .where('id', '=', found.dashboard.id)
      .execute();
    return this.viewOf(found.dashboard.workbook_id, found.dashboard.id);
  }

  /**
   * The dashboard by its public id. An embed token gets it only within its own deployment, only
   * when it is published with embedding allowed, and (for a token minted for one dashboard) only
   * that one; an embed tenant's dashboard, only with a token of that tenant, and a creator-mode
   * token of the tenant gets it whatever its status and embedding, as its makers preview it. A
   * user credential gets it when its user may read the workbook, whatever its status and
   * embedding: a person previewing what they share (never a tenant's). Every other case is 404.
   */
  async getByPublicId(principal: Principal, publicId: string): Promise<DashboardView> {
    const missing = notFound(`Dashboard ${publicId} not found`);
    if (principal.kind === 'embedToken') {
      assertMayOpenDashboard(principal.claims, publicId);
      const found = await this.repo.byPublicId(principal.accountId, publicId);
      if (!found || found.dashboard.deployment_id !== principal.claims.deploymentId) throw missing;
      const tenant = found.dashboard.embed_tenant_id;
      if (tenant !== null && tenant !== principal.claims.embedTenantId) throw missing;
      if (tenant !== null && principal.claims.creatorMode) return dashboardView(found);
      if (!found.dashboard.allow_embed || found.dashboard.status !== 'published') throw missing;
      return dashboardView(found);
    }
    if (principal.kind !== 'apiKey' && principal.kind !== 'accessToken') throw missing;
    const found = await this.repo.byPublicId(principal.accountId, publicId);
    if (!found) throw missing;
    const workbook = await this.repo.find(principal.accountId, found.dashboard.deployment_id, found.dashboard.workbook_id);
    if (!workbook) throw missing;
    const held = await this.ctx.services.contentAccess.actionsOn(principal, dashboardItem(found.dashboard.id, workbook));
    if (!held.has('WorkbookRead')) throw missing;
    return dashboardView(found);
  }

  private async archive(row: WorkbookRow, dashboardId: number | null): Promise<DashboardView> {
    const published = (await this.repo.published([row.id])).get(row.id);
    if (!published) throw badRequest(`Workbook ${row.id} has no published dashboard to archive`);
    if (dashboardId !== null && dashboardId !== published.dashboard.id) {
      throw badRequest(`dashboardId: ${dashboardId} is not the dashboard of workbook ${row.id}`);
    }
    await this.ctx.db
      .updateTable('dashboard')
      .set({ status: 'archived', updated_at: new Date() })
      .where('id', '=', published.dashboard.id)
      .execute();
    return this.viewOf(row.id, published.dashboard.id);
  }

  private check(row: WorkbookRow, config: DashboardConfigValue, field: string) {
    return checkDashboard(config, (ids) => this.repo.reportIdsOf(row.id, ids), field);
  }

  private async viewOf(workbookId: number, dashboardId: number): Promise<DashboardView> {
    const found = (await this.repo.published([workbookId])).get(workbookId);
    if (!found || found.dashboard.id !== dashboardId) throw notFound(`Dashboard ${dashboardId} not found`);
    return dashboardView(found);
  }
}

/** A dashboard as content access sees it: its workbook's owner and folder, and policies on it or on its workbook. */
const dashboardItem = (dashboardId: number, workbook: WorkbookRow): ContentItem => ({
  ...itemOf(workbook),
  type: 'Dashboard',
  id: dashboardId,
  workbookId: workbook.id,
});
