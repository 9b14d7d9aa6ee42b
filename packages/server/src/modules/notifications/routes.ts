import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { NoContent } from '../../http/common-schemas.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { DeploymentParams } from '../deployments/schemas.js';
import {
  AddNotificationRecipientsInput,
  CreateNotificationInput,
  ListQuery,
  NotificationDto,
  NotificationParams,
  NotificationRecipientsListResponse,
  NotificationRecipientsMutationResponse,
  NotificationRunsListResponse,
  NotificationsListResponse,
  NotificationsQuery,
  RemoveNotificationRecipientsInput,
  UpdateNotificationInput,
} from './schemas.js';

const tags = ['Notifications'];
const READ = 'Needs `WorkbookRead` on the dashboard of the notification (a notification the caller may not read is 404).';
const EDIT = 'Needs `WorkbookEdit` on the dashboard of the notification.';
const read = requires('DeploymentRead', { resource: deploymentParam(), alsoDemands: READ });
const edit = requires('DeploymentRead', { resource: deploymentParam(), alsoDemands: EDIT });
const SCHEDULE =
  '`scheduleType` HOURLY uses `minute`; DAILY `hour` and `minute`; WEEKLY also `dayOfWeek` (required, 0 = Sunday); MONTHLY also `dayOfMonth` (required, 1-31); CUSTOM `customCron` only (5 fields). Left-out times are 0; a field the type does not use is a 400. `timezone` is an IANA zone, UTC by default; slots follow its daylight-saving changes.';
const base = '/api/v1/deployments/:deploymentId/notifications';

export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { notifications, notificationRecipients, notificationRuns } = app.services;

  app.get(base, {
    config: { auth: read },
    schema: {
      operationId: 'getNotifications',
      tags,
      summary: 'List scheduled notifications',
      description:
        "The deployment's notifications whose dashboards the caller may read, newest first; `dashboardId` keeps one dashboard's.",
      params: DeploymentParams,
      querystring: NotificationsQuery,
      response: { 200: Type.Ref(NotificationsListResponse) },
    },
    handler: async (request) => notifications.list(userPrincipalOf(request), request.params.deploymentId, request.query),
  });

  app.post(base, {
    config: { auth: requires('DeploymentRead', { resource: deploymentParam(), alsoDemands: 'Needs `WorkbookEdit` on the dashboard.' }) },
    schema: {
      operationId: 'createNotification',
      tags,
      summary: 'Create a scheduled notification',
      description: `Runs the published dashboard \`dashboardId\` of this deployment on a schedule and delivers it to the recipients added later (addRecipients). ${SCHEDULE}`,
      params: DeploymentParams,
      body: Type.Ref(CreateNotificationInput),
      response: { 200: Type.Ref(NotificationDto) },
    },
    handler: async (request) =>
      notifications.create(userPrincipalOf(request), request.params.deploymentId, request.body as CreateNotificationInput),
  });

  app.get(`${base}/:id`, {
    config: { auth: read },
    schema: {
      operationId: 'getNotification',
      tags,
      summary: 'Get a scheduled notification',
      description: 'The notification with its cron expression, time zone, state, format, next run and the schedule in words.',
      params: NotificationParams,
      response: { 200: Type.Ref(NotificationDto) },
    },
    handler: async (request) => notifications.get(userPrincipalOf(request), request.params.deploymentId, request.params.id),
  });

  app.put(`${base}/:id`, {
    config: { auth: edit },
    schema: {
      operationId: 'updateNotification',
      tags,
      summary: 'Update a scheduled notification',
      description: `Changes the fields sent; the others stay (a new \`scheduleType\` starts from its own fields). \`isEnabled: false\` stops the schedule, and runs already queued then send nothing. ${SCHEDULE}`,
      params: NotificationParams,
      body: Type.Ref(UpdateNotificationInput),
      response: { 200: Type.Ref(NotificationDto) },
    },
    handler: async (request) =>
      notifications.update(
        userPrincipalOf(request),
        request.params.deploymentId,
        request.params.id,
        (request.body ?? {}) as UpdateNotificationInput,
      ),
  });

  app.delete(`${base}/:id`, {
    config: { auth: edit },
    schema: {
      operationId: 'deleteNotification',
      tags,
      summary: 'Delete a scheduled notification',
      description: 'Deletes it with its recipients and run records; runs already queued send nothing.',
      params: NotificationParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await notifications.delete(userPrincipalOf(request), request.params.deploymentId, request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.get(`${base}/:id/recipients`, {
    config: { auth: read },
    schema: {
      operationId: 'getRecipients',
      tags,
      summary: 'List notification recipients',
      description:
        'Newest first: USER (`userId`, `email`), EMBED_USER (`embedUserId`, `embedTenantName`, `externalId`, `email` and what decides their rendering) and SLACK (`channelId`, `channelName`).',
      params: NotificationParams,
      querystring: ListQuery,
      response: { 200: Type.Ref(NotificationRecipientsListResponse) },
    },
    handler: async (request) =>
      notificationRecipients.list(userPrincipalOf(request), request.params.deploymentId, request.params.id, request.query),
  });

  app.post(`${base}/:id/recipients`, {
    config: { auth: edit },
    schema: {
      operationId: 'addRecipients',
      tags,
      summary: 'Add notification recipients',
      description:
        "1 to 1000 per request, all or none. USER: `userId` or `email` of a user of the account; EMBED_USER: `embedTenantName` and `externalId`, with `groups`, `userAttributes` and `securityContext` deciding what their rendering shows, sent to `email` or an email-shaped `externalId`; SLACK: `channelId` (and `channelName`), posted with the account's Slack bot token. The same recipient twice in a request is a 400 naming both entries. Idempotent: each is created, updated (its email, groups, attributes, security context or channel name changed) or unchanged.",
      params: NotificationParams,
      body: Type.Ref(AddNotificationRecipientsInput),
      response: { 200: Type.Ref(NotificationRecipientsMutationResponse) },
    },
    handler: async (request) =>
      notificationRecipients.add(
        userPrincipalOf(request),
        request.params.deploymentId,
        request.params.id,
        (request.body as { recipients: never[] }).recipients,
      ),
  });

  app.delete(`${base}/:id/recipients`, {
    config: { auth: edit },
    schema: {
      operationId: 'removeRecipients',
      tags,
      summary: 'Remove notification recipients',
      description:
        '1 to 1000 per request. `id` is the userId (USER), the embedUserId or externalId (EMBED_USER, with `embedTenantName`) or the channelId (SLACK). Removing one that is not subscribed is no error.',
      params: NotificationParams,
      body: Type.Ref(RemoveNotificationRecipientsInput),
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      const body = request.body as { recipients: never[] };
      await notificationRecipients.remove(userPrincipalOf(request), request.params.deploymentId, request.params.id, body.recipients);
      return reply.code(204).send(null);
    },
  });

  app.get(`${base}/:id/runs`, {
    config: { auth: read },
    schema: {
      operationId: 'getNotificationRuns',
      tags,
      summary: 'List the runs of a notification',
      description:
        'Newest first, each with one delivery per recipient: its status (pending, retrying, sent, failed, cancelled), attempts, last error and when it was sent, and how many renderings the run made (recipients who see the same rows share one).',
      params: NotificationParams,
      querystring: ListQuery,
      response: { 200: Type.Ref(NotificationRunsListResponse) },
    },
    handler: async (request) =>
      notificationRuns.list(userPrincipalOf(request), request.params.deploymentId, request.params.id, request.query),
  });
};
