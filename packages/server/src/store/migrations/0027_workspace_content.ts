import { sql, type Kysely } from 'kysely';

/**
 * Workspace content of a deployment (issue 16): folders, reports, workbooks and the dashboards
 * workbooks publish. Content is private to its creator (`created_by`) until a resource policy
 * shares it; policies on a folder reach everything below it. Deleting a folder deletes what is in
 * it (the service refuses a non-empty folder unless asked to), deleting a workbook deletes its
 * reports and dashboard. A creator who is deleted leaves the content ownerless (`set null`), never lost.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table folder (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      parent_id integer references folder(id) on delete cascade,
      name text not null,
      position integer not null default 0,
      created_by integer references app_user(id) on delete set null,
      updated_by integer references app_user(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index folder_name_per_parent on folder (deployment_id, coalesce(parent_id, 0), lower(name));
    create index folder_parent on folder (parent_id);

    create table workbook (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      folder_id integer references folder(id) on delete cascade,
      name text not null,
      type text not null default 'WORKBOOK',
      meta jsonb not null default '{}',
      calculated_fields jsonb not null default '{}',
      dashboard_draft jsonb,
      created_by integer references app_user(id) on delete set null,
      updated_by integer references app_user(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index workbook_deployment on workbook (deployment_id, id);
    create index workbook_folder on workbook (folder_id);

    create table report (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      folder_id integer references folder(id) on delete cascade,
      workbook_id integer references workbook(id) on delete cascade,
      public_id text not null unique,
      name text not null,
      title text,
      description text,
      type text not null default 'REPORT',
      source text,
      json_query text,
      sql_query text,
      pivot_items jsonb,
      meta jsonb,
      end_result_cell text,
      external_workbook_id text,
      result_location text,
      version integer not null default 1,
      snapshot jsonb,
      refresh_error text,
      refreshed_by integer references app_user(id) on delete set null,
      refreshed_at timestamptz,
      created_by integer references app_user(id) on delete set null,
      updated_by integer references app_user(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index report_deployment on report (deployment_id, id);
    create index report_folder on report (folder_id);
    create index report_workbook on report (workbook_id);

    create table dashboard (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      workbook_id integer not null unique references workbook(id) on delete cascade,
      public_id text not null unique,
      status text not null default 'draft' check (status in ('draft', 'published', 'archived')),
      allow_embed boolean not null default false,
      title text,
      description text,
      created_by integer references app_user(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table dashboard_version (
      id integer generated always as identity primary key,
      dashboard_id integer not null references dashboard(id) on delete cascade,
      version_number integer not null,
      title text,
      description text,
      config jsonb not null,
      report_snapshots jsonb not null default '[]',
      published_by integer references app_user(id) on delete set null,
      created_at timestamptz not null default now(),
      unique (dashboard_id, version_number)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table dashboard_version; drop table dashboard; drop table report; drop table workbook; drop table folder`.execute(db);
}
