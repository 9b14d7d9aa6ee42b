import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { PageInfo } from '../../http/pagination.js';
import { SCHEDULE_TYPES } from './schedule.js';

export const MAX_RECIPIENTS_PER_REQUEST = 1000;
/** The reference pages notifications and recipients by at most 200. */
export const MAX_NOTIFICATION_PAGE = 200;
export const RECIPIENT_TYPES = ['USER', 'EMBED_USER', 'SLACK'] as const;
export const FORMATS = ['png', 'pdf'] as const;

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** Optional, and null means the same as left out (the reference's `oneOf [T, null]`). */
const optional = <T extends TSchema>(schema: T) => Type.Optional(nullable(schema));
const Int = (description: string) => optional(Type.Integer({ description }));

const scheduleFields = {
  customCron: optional(Type.String({ maxLength: 200, description: 'Cron expression of 5 fields (required when scheduleType is CUSTOM).' })),
  minute: Int('Minute of the hour (0-59); 0 when left out.'),
  hour: Int('Hour of the day (0-23), for DAILY, WEEKLY and MONTHLY; 0 when left out.'),
  dayOfWeek: Int('Day of the week (0-6, Sunday = 0), required for WEEKLY.'),
  dayOfMonth: Int('Day of the month (1-31), required for MONTHLY; months without that day are skipped.'),
  timezone: optional(
    Type.String({ maxLength: 100, description: 'IANA time zone of the schedule (e.g. "America/New_York"); UTC when left out.' }),
  ),
  notificationEnabled: optional(Type.Boolean({ description: 'Whether runs deliver to the recipients (true when left out).' })),
  notificationFormat: optional(
    StringEnum(FORMATS, { description: 'png: the image inline; pdf: the PDF attached as well (png when left out).' }),
  ),
};

export const CreateNotificationInput = Type.Object(
  {
    dashboardId: Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: 'Dashboard to run on the schedule (its id, as publishDashboard answers).',
    }),
    scheduleType: StringEnum(SCHEDULE_TYPES),
    ...scheduleFields,
  },
  { $id: 'CreateNotificationInput', additionalProperties: false },
);
export type CreateNotificationInput = Static<typeof CreateNotificationInput>;

export const UpdateNotificationInput = Type.Object(
  {
    scheduleType: optional(StringEnum(SCHEDULE_TYPES)),
    isEnabled: optional(Type.Boolean({ description: 'Enable or disable the schedule.' })),
    ...scheduleFields,
  },
  { $id: 'UpdateNotificationInput', additionalProperties: false },
);
export type UpdateNotificationInput = Static<typeof UpdateNotificationInput>;

export const NotificationDto = Type.Object(
  {
    id: Type.Integer(),
    dashboardId: Type.Integer(),
    deploymentId: Type.Integer(),
    cronExpression: Type.String(),
    timezone: Type.String(),
    isEnabled: Type.Boolean(),
    humanReadableSchedule: Type.String({ description: 'The schedule in words.' }),
    notificationEnabled: Type.Boolean(),
    notificationFormat: Type.String(),
    scheduleType: StringEnum(SCHEDULE_TYPES),
    minute: nullable(Type.Integer()),
    hour: nullable(Type.Integer()),
    dayOfWeek: nullable(Type.Integer()),
    dayOfMonth: nullable(Type.Integer()),
    customCron: nullable(Type.String()),
    nextRunAt: nullable(Type.String({ format: 'date-time', description: 'The next slot; null while disabled.' })),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'NotificationDto' },
);
export type NotificationDto = Static<typeof NotificationDto>;

export const NotificationsListResponse = Type.Object(
  { items: Type.Array(Type.Ref(NotificationDto)), pageInfo: Type.Ref(PageInfo) },
  { $id: 'NotificationsListResponse' },
);

const UserAttributeInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    value: nullable(Type.Union([Type.String(), Type.Number(), Type.Array(Type.String()), Type.Array(Type.Number())])),
  },
  { additionalProperties: false },
);

export const NotificationRecipientInput = Type.Object(
  {
    type: StringEnum(RECIPIENT_TYPES),
    userId: optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Main user id (USER; this or email).' })),
    email: optional(
      Type.String({
        maxLength: 254,
        description: "USER: the user's email (this or userId); EMBED_USER: where to send, when externalId is not an email.",
      }),
    ),
    embedTenantName: optional(Type.String({ maxLength: 100, description: 'Embed tenant name (EMBED_USER).' })),
    externalId: optional(Type.String({ maxLength: 255, description: 'Embed user external id (EMBED_USER).' })),
    groups: optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
        maxItems: 100,
        description: "Embed user groups (EMBED_USER): what the recipient's rendering shows.",
      }),
    ),
    userAttributes: optional(Type.Array(UserAttributeInput, { maxItems: 100, description: 'Embed user attribute values (EMBED_USER).' })),
    securityContext: optional(
      Type.Object({}, { additionalProperties: true, description: "Security context of the embed user's rendering (EMBED_USER)." }),
    ),
    channelId: optional(Type.String({ maxLength: 100, description: 'Slack channel id (SLACK).' })),
    channelName: optional(Type.String({ maxLength: 200, description: 'Slack channel display name (SLACK, optional).' })),
  },
  { $id: 'NotificationRecipientInput', additionalProperties: false },
);
export type NotificationRecipientInput = Static<typeof NotificationRecipientInput>;

const recipientsOf = <T extends TSchema>(item: T, description: string) =>
  Type.Array(item, { minItems: 1, maxItems: MAX_RECIPIENTS_PER_REQUEST, description });

export const AddNotificationRecipientsInput = Type.Object(
  { recipients: recipientsOf(Type.Ref(NotificationRecipientInput), 'Recipients to subscribe (1-1000 per request).') },
  { $id: 'AddNotificationRecipientsInput', additionalProperties: false },
);

export const RemoveNotificationRecipientInput = Type.Object(
  {
    type: StringEnum(RECIPIENT_TYPES),
    id: Type.Union([Type.Integer(), Type.String({ minLength: 1, maxLength: 255 })], {
      description: 'userId (USER), embedUserId or externalId (EMBED_USER), channelId (SLACK).',
    }),
    embedTenantName: optional(Type.String({ maxLength: 100, description: 'Required for EMBED_USER.' })),
  },
  { $id: 'RemoveNotificationRecipientInput', additionalProperties: false },
);
export type RemoveNotificationRecipientInput = Static<typeof RemoveNotificationRecipientInput>;

export const RemoveNotificationRecipientsInput = Type.Object(
  { recipients: recipientsOf(Type.Ref(RemoveNotificationRecipientInput), 'Recipients to unsubscribe (1-1000 per request).') },
  { $id: 'RemoveNotificationRecipientsInput', additionalProperties: false },
);

export const NotificationRecipient = Type.Object(
  {
    type: StringEnum(RECIPIENT_TYPES),
    userId: nullable(Type.Integer()),
    email: nullable(Type.String()),
    embedUserId: nullable(Type.Integer({ description: "Plinth's id of the embed recipient; removeRecipients takes it." })),
    embedTenantName: nullable(Type.String()),
    externalId: nullable(Type.String()),
    groups: nullable(Type.Array(Type.String())),
    userAttributes: nullable(Type.Array(Type.Object({ name: Type.String(), value: Type.Unknown() }))),
    securityContext: nullable(Type.Object({}, { additionalProperties: true })),
    channelId: nullable(Type.String()),
    channelName: nullable(Type.String()),
  },
  { $id: 'NotificationRecipient' },
);
export type NotificationRecipient = Static<typeof NotificationRecipient>;

export const NotificationRecipientsListResponse = Type.Object(
  { items: Type.Array(Type.Ref(NotificationRecipient)), pageInfo: Type.Ref(PageInfo) },
  { $id: 'NotificationRecipientsListResponse' },
);

export const NotificationRecipientsMutationResponse = Type.Object(
  {
    createdRecipients: Type.Array(Type.Ref(NotificationRecipient)),
    updatedRecipients: Type.Array(Type.Ref(NotificationRecipient)),
    unchangedRecipients: Type.Array(Type.Ref(NotificationRecipient)),
  },
  { $id: 'NotificationRecipientsMutationResponse' },
);

export const DELIVERY_STATUSES = ['pending', 'retrying', 'sent', 'failed', 'cancelled'] as const;

export const NotificationDelivery = Type.Object(
  {
    id: Type.Integer(),
    recipient: Type.Ref(NotificationRecipient),
    status: StringEnum(DELIVERY_STATUSES),
    attempts: Type.Integer(),
    lastError: nullable(Type.String()),
    sentAt: nullable(Timestamp),
  },
  { $id: 'NotificationDelivery' },
);

export const NotificationRun = Type.Object(
  {
    id: Type.Integer(),
    notificationId: Type.Integer(),
    dueAt: Timestamp,
    createdAt: Timestamp,
    status: StringEnum(['running', 'sent', 'partial', 'failed', 'skipped', 'cancelled'] as const, {
      description:
        'running until every delivery ended; then sent, partial (some failed) or failed; skipped or cancelled when nothing was sent.',
    }),
    note: nullable(Type.String()),
    renderings: Type.Integer({ description: 'Renderings made for the run: recipients who see the same rows share one.' }),
    deliveries: Type.Array(Type.Ref(NotificationDelivery)),
  },
  { $id: 'NotificationRun' },
);
export type NotificationRun = Static<typeof NotificationRun>;

export const NotificationRunsListResponse = Type.Object(
  { items: Type.Array(Type.Ref(NotificationRun)), pageInfo: Type.Ref(PageInfo) },
  { $id: 'NotificationRunsListResponse' },
);

export const ListQuery = Type.Object({
  first: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_NOTIFICATION_PAGE, description: 'Page size (default 100, max 200).' })),
  after: Type.Optional(Type.String({ description: "Cursor: the previous page's `pageInfo.endCursor`." })),
});
export const NotificationsQuery = Type.Object({
  ...ListQuery.properties,
  dashboardId: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Only the notifications of this dashboard.' }),
  ),
});

export const NotificationParams = Type.Object({ deploymentId: IntegerId, id: IntegerId });

export const notificationSchemas = [
  CreateNotificationInput,
  UpdateNotificationInput,
  NotificationDto,
  NotificationsListResponse,
  NotificationRecipientInput,
  AddNotificationRecipientsInput,
  RemoveNotificationRecipientInput,
  RemoveNotificationRecipientsInput,
  NotificationRecipient,
  NotificationRecipientsListResponse,
  NotificationRecipientsMutationResponse,
  NotificationDelivery,
  NotificationRun,
  NotificationRunsListResponse,
];
