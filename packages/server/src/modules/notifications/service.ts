import { notFound } from '../../http/errors.js';
import { decodeCursor, pageSize, toPage, type ListOrder } from '../../http/pagination.js';
import type { UserPrincipal } from '../../http/principal.js';
import type { NotificationRow } from '../../store/schema.js';
import type { ServiceContext } from '../module.js';
import type { ContentLevel } from '../resource-policies/public.js';
import { dashboardIdsWhere, dashboardOfAccount } from '../workbooks/public.js';
import { checkSchedule, describeSchedule, nextRun, type Schedule, type ScheduleType } from './schedule.js';
import type { CreateNotificationInput, NotificationDto, UpdateNotificationInput } from './schemas.js';

/** Newest first, as the reference lists them. */
export const NEWEST_FIRST: ListOrder<{ id: number }> = {
  list: 'notifications',
  sort: 'id',
  kind: 'id',
  direction: 'desc',
  keyOf: (r) => r.id,
};

/**
 * Scheduled notifications of a deployment's dashboards. Who may see one and its recipients and
 * runs follows its dashboard: WorkbookRead on it; creating, changing and deleting one and its
 * recipients needs WorkbookEdit (admins hold both). A notification the caller may not see is 404.
 */
export class NotificationService {
  constructor(private readonly ctx: ServiceContext) {}

  private get db() {
    return this.ctx.db;
  }

  /** The dashboard after checking the principal holds `level` on it (404 when it may not read it). */
  async demandDashboard(principal: UserPrincipal, deploymentId: number, dashboardId: number, level: ContentLevel) {
    const found = await dashboardOfAccount(this.db, principal.accountId, dashboardId);
    if (!found || found.deployment_id !== deploymentId) throw notFound(`Dashboard ${dashboardId} not found`);
    await this.ctx.services.contentAccess.demand(
      principal,
      {
        type: 'Dashboard',
        id: dashboardId,
        deploymentId,
        ownerId: found.created_by,
        folderId: found.folder_id,
        workbookId: found.workbook_id,
        embedTenantId: found.embed_tenant_id,
      },
      level,
    );
  }

  /** The notification after checking its dashboard grants `level`; 404 when the caller may not read it. */
  async demand(principal: UserPrincipal, deploymentId: number, id: number, level: ContentLevel): Promise<NotificationRow> {
    await this.assertDeployment(principal.accountId, deploymentId);
    const row = await this.db
      .selectFrom('notification')
      .selectAll()
      .where('account_id', '=', principal.accountId)
      .where('deployment_id', '=', deploymentId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound(`Notification ${id} not found`);
    try {
      await this.demandDashboard(principal, deploymentId, row.dashboard_id, level);
    } catch (error) {
      if ((error as { code?: string }).code === 'not_found') throw notFound(`Notification ${id} not found`);
      throw error;
    }
    return row;
  }

  async list(principal: UserPrincipal, deploymentId: number, query: { first?: number; after?: string; dashboardId?: number }) {
    await this.assertDeployment(principal.accountId, deploymentId);
    const access = this.ctx.services.contentAccess;
    const scope = await access.readScope(principal, deploymentId, 'Workbook');
    const after = decodeCursor(NEWEST_FIRST, query.after)?.id;
    let select = this.db
      .selectFrom('notification')
      .selectAll()
      .where('account_id', '=', principal.accountId)
      .where('deployment_id', '=', deploymentId)
      .where('dashboard_id', 'in', dashboardIdsWhere(access.readable('workbook', scope)));
    if (query.dashboardId !== undefined) select = select.where('dashboard_id', '=', query.dashboardId);
    if (after !== undefined) select = select.where('id', '<', after);
    const rows = await select
      .orderBy('id', 'desc')
      .limit(pageSize(query) + 1)
      .execute();
    return toPage(NEWEST_FIRST, rows, query, notificationView);
  }

  async get(principal: UserPrincipal, deploymentId: number, id: number): Promise<NotificationDto> {
    return notificationView(await this.demand(principal, deploymentId, id, 'Read'));
  }

  async create(principal: UserPrincipal, deploymentId: number, input: CreateNotificationInput): Promise<NotificationDto> {
    await this.assertDeployment(principal.accountId, deploymentId);
    await this.demandDashboard(principal, deploymentId, input.dashboardId, 'Edit');
    const schedule = checkSchedule(input);
    const row = await this.db
      .insertInto('notification')
      .values({
        account_id: principal.accountId,
        deployment_id: deploymentId,
        dashboard_id: input.dashboardId,
        ...scheduleColumns(schedule),
        notification_enabled: input.notificationEnabled ?? true,
        notification_format: input.notificationFormat ?? 'png',
        next_run_at: nextRun(schedule, new Date()),
        created_by: principal.userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return notificationView(row);
  }

  /**
   * Omitted fields stay; a new `scheduleType` starts from no time fields, so a WEEKLY schedule's
   * day does not linger in the DAILY one that replaces it. The next run is computed afresh.
   */
  async update(principal: UserPrincipal, deploymentId: number, id: number, input: UpdateNotificationInput): Promise<NotificationDto> {
    const row = await this.demand(principal, deploymentId, id, 'Edit');
    const type = (input.scheduleType ?? row.schedule_type) as ScheduleType;
    const keep = type === row.schedule_type;
    const pick = <K extends 'minute' | 'hour' | 'dayOfWeek' | 'dayOfMonth' | 'customCron' | 'timezone'>(field: K, stored: unknown) =>
      input[field] !== undefined ? input[field] : keep || field === 'timezone' ? stored : null;
    const schedule = checkSchedule({
      scheduleType: type,
      minute: pick('minute', row.minute) as number | null,
      hour: pick('hour', row.hour) as number | null,
      dayOfWeek: pick('dayOfWeek', row.day_of_week) as number | null,
      dayOfMonth: pick('dayOfMonth', row.day_of_month) as number | null,
      customCron: pick('customCron', row.custom_cron) as string | null,
      timezone: pick('timezone', row.timezone) as string | null,
    });
    const enabled = input.isEnabled ?? row.is_enabled;
    const updated = await this.db
      .updateTable('notification')
      .set({
        ...scheduleColumns(schedule),
        is_enabled: enabled,
        notification_enabled: input.notificationEnabled ?? row.notification_enabled,
        notification_format: input.notificationFormat ?? row.notification_format,
        next_run_at: enabled ? nextRun(schedule, new Date()) : null,
        updated_at: new Date(),
      })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return notificationView(updated);
  }

  /** Deletes it with its recipients and runs: a job of it still queued finds nothing and sends nothing. */
  async delete(principal: UserPrincipal, deploymentId: number, id: number): Promise<void> {
    const row = await this.demand(principal, deploymentId, id, 'Edit');
    await this.db.deleteFrom('notification').where('id', '=', row.id).execute();
  }

  async assertDeployment(accountId: number, deploymentId: number): Promise<void> {
    if (!(await this.ctx.services.deployments.find(accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
  }
}

function scheduleColumns(schedule: Schedule) {
  return {
    schedule_type: schedule.scheduleType,
    minute: schedule.minute,
    hour: schedule.hour,
    day_of_week: schedule.dayOfWeek,
    day_of_month: schedule.dayOfMonth,
    custom_cron: schedule.customCron,
    cron_expression: schedule.cronExpression,
    timezone: schedule.timezone,
  };
}

export function scheduleOf(row: NotificationRow): Schedule {
  return {
    scheduleType: row.schedule_type as ScheduleType,
    minute: row.minute,
    hour: row.hour,
    dayOfWeek: row.day_of_week,
    dayOfMonth: row.day_of_month,
    customCron: row.custom_cron,
    timezone: row.timezone,
    cronExpression: row.cron_expression,
  };
}

export function notificationView(row: NotificationRow): NotificationDto {
  return {
    id: row.id,
    dashboardId: row.dashboard_id,
    deploymentId: row.deployment_id,
    cronExpression: row.cron_expression,
    timezone: row.timezone,
    isEnabled: row.is_enabled,
    humanReadableSchedule: describeSchedule(scheduleOf(row)),
    notificationEnabled: row.notification_enabled,
    notificationFormat: row.notification_format,
    scheduleType: row.schedule_type as ScheduleType,
    minute: row.minute,
    hour: row.hour,
    dayOfWeek: row.day_of_week,
    dayOfMonth: row.day_of_month,
    customCron: row.custom_cron,
    nextRunAt: row.next_run_at ? new Date(row.next_run_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
