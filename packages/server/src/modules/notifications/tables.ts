import type { ColumnType, Generated, Selectable } from 'kysely';

/** The tables this module owns (its index.ts lists them), merged into the store's `Database`. */
declare module '../../store/schema.js' {
  interface Database {
    notification: NotificationTable;
    notification_recipient: NotificationRecipientTable;
    notification_run: NotificationRunTable;
    notification_rendering: NotificationRenderingTable;
    notification_delivery: NotificationDeliveryTable;
  }

  export interface NotificationTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    dashboard_id: number;
    schedule_type: string;
    minute: number | null;
    hour: number | null;
    day_of_week: number | null;
    day_of_month: number | null;
    custom_cron: string | null;
    cron_expression: string;
    timezone: string;
    is_enabled: Generated<boolean>;
    notification_enabled: Generated<boolean>;
    notification_format: Generated<string>;
    /** The row schedule's next slot; null while the notification is disabled. */
    next_run_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    created_by: number | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }
  export type NotificationRow = Selectable<NotificationTable>;

  export interface NotificationRecipientTable {
    id: Generated<number>;
    account_id: number;
    notification_id: number;
    type: string;
    /** Who the recipient is, once per notification: `USER:<id>`, `EMBED_USER:<tenant>/<externalId>`, `SLACK:<channel>`. */
    recipient_key: string;
    user_id: number | null;
    email: string | null;
    embed_tenant_name: string | null;
    external_id: string | null;
    groups: Json<string[] | null> | null;
    user_attributes: Json<{ name: string; value: unknown }[] | null> | null;
    security_context: Json<Record<string, unknown> | null> | null;
    channel_id: string | null;
    channel_name: string | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }
  export type NotificationRecipientRow = Selectable<NotificationRecipientTable>;

  export interface NotificationRunTable {
    id: Generated<number>;
    account_id: number;
    notification_id: number;
    due_at: Timestamp;
    status: Generated<string>;
    note: string | null;
    created_at: CreatedAt;
  }
  export type NotificationRunRow = Selectable<NotificationRunTable>;

  export interface NotificationRenderingTable {
    id: Generated<number>;
    run_id: number;
    viewer_key: string;
    viewer: Json<unknown>;
    status: Generated<string>;
    png: Buffer | null;
    pdf: Buffer | null;
    data_fingerprint: string | null;
    link: string | null;
    error: string | null;
    created_at: CreatedAt;
    finished_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  }

  export interface NotificationDeliveryTable {
    id: Generated<number>;
    account_id: number;
    run_id: number;
    rendering_id: number;
    recipient_key: string;
    /** The recipient as it was when the run started: a recipient removed later still shows in the record. */
    recipient: Json<Record<string, unknown>>;
    status: Generated<string>;
    attempts: Generated<number>;
    last_error: string | null;
    sent_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    created_at: CreatedAt;
  }
  export type NotificationDeliveryRow = Selectable<NotificationDeliveryTable>;
}
