import { sql, type Kysely } from 'kysely';

/**
 * Signed embedding (spec 2.4–2.11, 4.3–4.5): embed tenants with their own groups and attributes,
 * external users keyed by tenant and normalised externalId, their memberships and values in both
 * catalogs (tenant-wide and the embed tenant's own), and one-time sessions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- Per account: the embed signing secret (sealed) and the count of external users, whose row
    -- lock serialises the creation of new external users so the section 8 limit holds under load.
    create table embed_account (
      account_id integer primary key references account(id) on delete cascade,
      signing_secret_sealed text,
      external_user_count integer not null default 0
    );

    create table embed_tenant (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      name text not null,
      created_at timestamptz not null default now(),
      unique (account_id, name)
    );

    create table embed_group (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      embed_tenant_id integer not null references embed_tenant(id) on delete cascade,
      name text not null,
      description text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (embed_tenant_id, name)
    );
    create index embed_group_page on embed_group (account_id, embed_tenant_id, id);

    create table embed_user_attribute (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      embed_tenant_id integer not null references embed_tenant(id) on delete cascade,
      name text not null,
      type text not null check (type in ('string', 'number', 'string_array', 'number_array')),
      display_name text,
      default_value text,
      description text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (embed_tenant_id, name)
    );
    create index embed_user_attribute_page on embed_user_attribute (account_id, embed_tenant_id, id);

    create table external_user (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      embed_tenant_id integer not null references embed_tenant(id) on delete cascade,
      external_id text not null,
      email text,
      display_name text,
      picture text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (embed_tenant_id, external_id)
    );
    create index external_user_page on external_user (account_id, embed_tenant_id, id);

    -- Read-only mode: memberships of tenant-wide groups and values of tenant-wide attributes.
    create table external_user_group (
      external_user_id integer not null references external_user(id) on delete cascade,
      group_id integer not null references user_group(id) on delete cascade,
      account_id integer not null references account(id) on delete cascade,
      primary key (external_user_id, group_id)
    );
    create index external_user_group_group on external_user_group (group_id);

    create table external_user_attribute_value (
      external_user_id integer not null references external_user(id) on delete cascade,
      attribute_id integer not null references user_attribute(id) on delete cascade,
      account_id integer not null references account(id) on delete cascade,
      value jsonb not null,
      primary key (external_user_id, attribute_id)
    );
    create index external_user_attribute_value_attribute on external_user_attribute_value (attribute_id);

    -- Creator mode and provisioning's tenantGroups: the embed tenant's own catalog.
    create table external_user_tenant_group (
      external_user_id integer not null references external_user(id) on delete cascade,
      embed_group_id integer not null references embed_group(id) on delete cascade,
      account_id integer not null references account(id) on delete cascade,
      primary key (external_user_id, embed_group_id)
    );
    create index external_user_tenant_group_group on external_user_tenant_group (embed_group_id);

    create table external_user_tenant_attribute_value (
      external_user_id integer not null references external_user(id) on delete cascade,
      embed_attribute_id integer not null references embed_user_attribute(id) on delete cascade,
      account_id integer not null references account(id) on delete cascade,
      value jsonb not null,
      primary key (external_user_id, embed_attribute_id)
    );
    create index external_user_tenant_attribute_value_attribute on external_user_tenant_attribute_value (embed_attribute_id);

    -- The session id is a bearer secret: only its hash is kept. Rows outlive their exchange as the
    -- audit trail, and so that a revoked session can stop the tokens issued from it.
    create table embed_session (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      session_hash text not null unique,
      api_key_id integer references api_key(id) on delete set null,
      deployment_id integer not null references deployment(id) on delete cascade,
      embed_tenant_id integer not null references embed_tenant(id) on delete cascade,
      external_user_id integer references external_user(id) on delete set null,
      internal_user_id integer references app_user(id) on delete set null,
      user_ref text not null,
      creator_mode boolean not null,
      show_dashboard_chat boolean,
      claims jsonb not null,
      created_at timestamptz not null default now(),
      exchange_by timestamptz not null,
      exchanged_at timestamptz,
      revoked_at timestamptz
    );
    create index embed_session_page on embed_session (account_id, id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table embed_session, external_user_tenant_attribute_value, external_user_tenant_group,
      external_user_attribute_value, external_user_group, external_user, embed_user_attribute,
      embed_group, embed_tenant, embed_account;
  `.execute(db);
}
