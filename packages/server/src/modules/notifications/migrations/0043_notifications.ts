import { sql, type Kysely } from 'kysely';

/**
 * Scheduled notifications: a dashboard run on a schedule and delivered to its recipients.
 * `notification.next_run_at` is the row schedule's (jobs/schedules.ts): the one process whose
 * tick locks the row enqueues the run and moves it past now. A run keeps one delivery per
 * recipient (its status, attempts and last error) and one rendering per set of recipients who see
 * the same rows; `unique (notification_id, due_at)` and `unique (run_id, recipient_key)` make a
 * second process's attempt at the same run or delivery a no-op.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table notification (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      dashboard_id integer not null references dashboard(id) on delete cascade,
      schedule_type text not null check (schedule_type in ('HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'CUSTOM')),
      minute integer,
      hour integer,
      day_of_week integer,
      day_of_month integer,
      custom_cron text,
      cron_expression text not null,
      timezone text not null,
      is_enabled boolean not null default true,
      notification_enabled boolean not null default true,
      notification_format text not null default 'png' check (notification_format in ('png', 'pdf')),
      next_run_at timestamptz,
      created_by integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index notification_deployment on notification (deployment_id, id);
    create index notification_due on notification (next_run_at) where is_enabled;

    create table notification_recipient (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      notification_id integer not null references notification(id) on delete cascade,
      type text not null check (type in ('USER', 'EMBED_USER', 'SLACK')),
      recipient_key text not null,
      user_id integer references app_user(id) on delete cascade,
      email text,
      embed_tenant_name text,
      external_id text,
      groups jsonb,
      user_attributes jsonb,
      security_context jsonb,
      channel_id text,
      channel_name text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (notification_id, recipient_key)
    );

    create table notification_run (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      notification_id integer not null references notification(id) on delete cascade,
      due_at timestamptz not null,
      status text not null default 'running' check (status in ('running', 'skipped', 'cancelled')),
      note text,
      created_at timestamptz not null default now(),
      unique (notification_id, due_at)
    );
    create index notification_run_list on notification_run (notification_id, id);

    create table notification_rendering (
      id integer generated always as identity primary key,
      run_id integer not null references notification_run(id) on delete cascade,
      viewer_key text not null,
      viewer jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'done', 'failed')),
      png bytea,
      pdf bytea,
      data_fingerprint text,
      link text,
      error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz,
      unique (run_id, viewer_key)
    );

    create table notification_delivery (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      run_id integer not null references notification_run(id) on delete cascade,
      rendering_id integer not null references notification_rendering(id) on delete cascade,
      recipient_key text not null,
      recipient jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'retrying', 'sent', 'failed', 'cancelled')),
      attempts integer not null default 0,
      last_error text,
      sent_at timestamptz,
      created_at timestamptz not null default now(),
      unique (run_id, recipient_key)
    );
    create index notification_delivery_rendering on notification_delivery (rendering_id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table notification_delivery;
    drop table notification_rendering;
    drop table notification_run;
    drop table notification_recipient;
    drop table notification;
  `.execute(db);
}
