import { sql, type Kysely } from 'kysely';

/**
 * A deployment's GitHub connection (issue 15): the repository its data model comes from, the
 * branch and folder to import, and how the last import went. One per deployment; `repository` is
 * `owner/repo` with an App installation, or any URL or path git understands without one. The
 * index serves webhooks, which name the installation and repository of a push.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table github_connection (
      deployment_id integer primary key references deployment(id) on delete cascade,
      account_id integer not null references account(id) on delete cascade,
      repository text not null,
      installation_id bigint,
      branch text not null,
      directory text,
      last_commit_sha text,
      last_build_id integer,
      last_imported_at timestamptz,
      last_error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index github_connection_repository on github_connection (installation_id, lower(repository));
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table github_connection`.execute(db);
}
