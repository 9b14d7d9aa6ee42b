import { sql, type Kysely } from 'kysely';

/**
 * Account administration (issue 16). `app_user.last_login_at` is when the user last signed in
 * (written at most once a minute, so a burst of logins costs one write). The account's embed theme
 * and app theme are one row each per account, holding only what an admin set: reads fill in the
 * defaults, so changing a default later reaches every account that never chose otherwise.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table app_user add column last_login_at timestamptz;

    create table embed_theme (
      account_id integer primary key references account(id) on delete cascade,
      theme jsonb not null,
      updated_by integer references app_user(id) on delete set null,
      updated_at timestamptz not null default now()
    );

    create table app_theme (
      account_id integer primary key references account(id) on delete cascade,
      theme jsonb not null,
      updated_by integer references app_user(id) on delete set null,
      updated_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table app_theme;
    drop table embed_theme;
    alter table app_user drop column last_login_at;
  `.execute(db);
}
