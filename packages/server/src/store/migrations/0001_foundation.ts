import { sql, type Kysely } from 'kysely';

/**
 * Accounts, identity, credentials, minimal deployments and OAuth integrations.
 * Every row that belongs to an account carries `account_id`, and every query filters on it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table instance_secret (
      name text primary key,
      value text not null,
      created_at timestamptz not null default now()
    );

    create table account (
      id integer generated always as identity primary key,
      name text not null unique,
      custom_domain text unique,
      created_at timestamptz not null default now()
    );

    create table tenant_settings (
      account_id integer primary key references account(id) on delete cascade,
      use_creator_mode boolean not null default false,
      bulk_action_limit integer not null default 1000,
      show_dashboard_chat boolean not null default true,
      updated_at timestamptz not null default now()
    );

    create table app_user (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      uuid uuid not null default gen_random_uuid() unique,
      email text not null,
      display_name text,
      given_name text,
      family_name text,
      external_id text,
      role text not null check (role in ('admin', 'member')),
      active boolean not null default true,
      password_hash text,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index app_user_email_per_account on app_user (account_id, lower(email));

    create table api_key (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      user_id integer not null references app_user(id) on delete cascade,
      name text not null,
      key_hash text not null unique,
      key_prefix text not null,
      role text not null check (role in ('admin', 'member')),
      deployment_ids integer[],
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    create index api_key_account on api_key (account_id, id);

    create table access_token (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      user_id integer not null references app_user(id) on delete cascade,
      token_hash text not null unique,
      refresh_token_hash text unique,
      expires_at timestamptz not null,
      refresh_expires_at timestamptz,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    );

    create table scim_token (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      created_by_user_id integer references app_user(id) on delete set null,
      name text not null,
      token_hash text not null unique,
      token_prefix text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    create index scim_token_account on scim_token (account_id, id);

    create table user_group (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      uuid uuid not null default gen_random_uuid() unique,
      name text not null,
      description text,
      external_id text,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (account_id, name)
    );

    create table group_member (
      group_id integer not null references user_group(id) on delete cascade,
      user_id integer not null references app_user(id) on delete cascade,
      account_id integer not null references account(id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (group_id, user_id)
    );
    create index group_member_user on group_member (user_id);

    create table user_attribute (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      name text not null,
      type text not null check (type in ('string', 'number', 'string_array', 'number_array')),
      display_name text,
      default_value text,
      description text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (account_id, name)
    );

    create table user_attribute_value (
      attribute_id integer not null references user_attribute(id) on delete cascade,
      user_id integer not null references app_user(id) on delete cascade,
      account_id integer not null references account(id) on delete cascade,
      value jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (attribute_id, user_id)
    );
    create index user_attribute_value_user on user_attribute_value (user_id);

    create table deployment (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      name text not null,
      region text,
      creation_step text not null default 'created',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index deployment_account on deployment (account_id, id);

    create table oauth_integration (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      name text not null,
      type text not null,
      auth_url text not null,
      token_url text not null,
      client_id text not null,
      client_secret_encrypted text,
      redirect_uri text not null,
      config jsonb,
      scopes jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index oauth_integration_account on oauth_integration (account_id, id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table oauth_integration, deployment, user_attribute_value, user_attribute, group_member,
      user_group, scim_token, access_token, api_key, app_user, tenant_settings, account, instance_secret;
  `.execute(db);
}
