import type { PlinthModule } from '../module.js';
import { deliverJob } from './deliver-job.js';
import { renderJob } from './render-job.js';
import { notificationRetention } from './retention.js';
import { RunRecords } from './run-records.js';
import { notificationRoutes } from './routes.js';
import { notificationSchedule, runJob } from './runs.js';
import { notificationSchemas } from './schemas.js';
import { NotificationService } from './service.js';
import { SubscriptionService } from './subscriptions.js';

declare module '../module.js' {
  interface Services {
    notifications: NotificationService;
    notificationRecipients: SubscriptionService;
    notificationRuns: RunRecords;
  }
}

/**
 * Scheduled notifications: a published dashboard rendered as each recipient sees it and sent by
 * e-mail or to Slack on a schedule, once per slot across processes (runs.ts).
 */
export const notificationsModule: PlinthModule = {
  name: 'notifications',
  tags: { Notifications: 'Scheduled notifications: dashboards delivered on a schedule by e-mail and Slack.' },
  services: {
    notifications: (ctx) => new NotificationService(ctx),
    notificationRecipients: (ctx) => new SubscriptionService(ctx, ctx.services.notifications),
    notificationRuns: (ctx) => new RunRecords(ctx, ctx.services.notifications),
  },
  tables: ['notification', 'notification_recipient', 'notification_run', 'notification_rendering', 'notification_delivery'],
  retention: notificationRetention,
  schemas: notificationSchemas,
  routes: notificationRoutes,
  jobs: [runJob, renderJob, deliverJob],
  schedules: [notificationSchedule],
};
