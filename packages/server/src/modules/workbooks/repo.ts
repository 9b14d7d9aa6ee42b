import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { DashboardRow, DashboardVersionRow, ReportRow, WorkbookRow } from '../../store/schema.js';
import { findFolder } from '../folders/public.js';
import { reportIdsOfWorkbook, reportsOfWorkbook } from '../reports/public.js';

/** A dashboard with its latest version (every stored dashboard has one: it is made by publishing). */
export interface PublishedDashboard {
  dashboard: DashboardRow;
  version: DashboardVersionRow;
}

/** workbook, dashboard and dashboard_version; reads report for what dashboards show. Bounded by account and deployment. */
export class WorkbookRepo {
  constructor(private readonly db: Executor) {}

  find(accountId: number, deploymentId: number, id: number): Promise<WorkbookRow | undefined> {
    return this.db
      .selectFrom('workbook')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Keyset page in id order, `readable` being the caller's read scope; folderId null: the root. */
  list(deploymentId: number, readable: Expression<SqlBool>, folderId: number | null | undefined, after: number | undefined, limit: number) {
    let query = this.db.selectFrom('workbook').selectAll().where('deployment_id', '=', deploymentId).where(readable);
    if (folderId === null) query = query.where('folder_id', 'is', null);
    else if (folderId !== undefined) query = query.where('folder_id', '=', folderId);
    if (after !== undefined) query = query.where('id', '>', after);
    return query.orderBy('id').limit(limit).execute();
  }

  folder(deploymentId: number, id: number) {
    return findFolder(this.db, deploymentId, id);
  }

  /** The reports among `ids` that belong to the workbook. */
  reportIdsOf(workbookId: number, ids: number[]): Promise<Set<number>> {
    return reportIdsOfWorkbook(this.db, workbookId, ids);
  }

  reportsOf(workbookId: number, ids?: number[]): Promise<ReportRow[]> {
    return reportsOfWorkbook(this.db, workbookId, ids);
  }

  /** The dashboards of these workbooks with their latest versions, by workbook id. */
  async published(workbookIds: number[]): Promise<Map<number, PublishedDashboard>> {
    const found = new Map<number, PublishedDashboard>();
    if (workbookIds.length === 0) return found;
    const dashboards = await this.db.selectFrom('dashboard').selectAll().where('workbook_id', 'in', workbookIds).execute();
    if (dashboards.length === 0) return found;
    const versions = await this.latestVersions(dashboards.map((d) => d.id));
    for (const dashboard of dashboards) {
      const version = versions.get(dashboard.id);
      if (version) found.set(dashboard.workbook_id, { dashboard, version });
    }
    return found;
  }

  async byPublicId(accountId: number, publicId: string): Promise<PublishedDashboard | undefined> {
    const dashboard = await this.db
      .selectFrom('dashboard')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('public_id', '=', publicId)
      .executeTakeFirst();
    if (!dashboard) return undefined;
    const version = (await this.latestVersions([dashboard.id])).get(dashboard.id);
    return version ? { dashboard, version } : undefined;
  }

  private async latestVersions(dashboardIds: number[]): Promise<Map<number, DashboardVersionRow>> {
    const rows = await this.db
      .selectFrom('dashboard_version as v')
      .selectAll('v')
      .where('v.dashboard_id', 'in', dashboardIds)
      .where('v.version_number', '=', (eb) =>
        eb
          .selectFrom('dashboard_version as w')
          .select(sql<number>`max(w.version_number)`.as('n'))
          .whereRef('w.dashboard_id', '=', 'v.dashboard_id'),
      )
      .execute();
    return new Map(rows.map((r) => [r.dashboard_id, r]));
  }

  /** The workbook's dashboard row, locked for the rest of the transaction (publishes of one workbook queue). */
  dashboardForUpdate(workbookId: number) {
    return this.db.selectFrom('dashboard').selectAll().where('workbook_id', '=', workbookId).forUpdate().executeTakeFirst();
  }

  async nextVersionNumber(dashboardId: number): Promise<number> {
    const row = await this.db
      .selectFrom('dashboard_version')
      .select(sql<number | null>`max(version_number)`.as('n'))
      .where('dashboard_id', '=', dashboardId)
      .executeTakeFirst();
    return Number(row?.n ?? 0) + 1;
  }
}
