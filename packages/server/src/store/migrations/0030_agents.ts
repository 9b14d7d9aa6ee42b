import { sql, type Kysely } from 'kysely';

/**
 * Agents and AI settings (issue 16). An account configures the OpenAI-compatible endpoints its
 * agents call (`agent_llm`, the API key sealed with the instance's secret box, never stored in the
 * clear); each deployment holds agents naming the views they may use and the endpoint they call.
 * An endpoint an agent still calls cannot be deleted (the default `no action`, checked at the end
 * of the statement, so an account's deletion still cascades through both): the service answers
 * 409 naming the agents first. `ai_engineer_settings` is one row per account (absent: the defaults); a user's chosen
 * region for agents is `agent_region_choice` (absent: the first configured region).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table agent_llm (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      name text not null,
      base_url text not null,
      model text not null,
      api_key_sealed text,
      created_by integer references app_user(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index agent_llm_name on agent_llm (account_id, lower(name));

    create table agent (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      name text not null,
      accessible_views jsonb not null default '[]',
      agent_llm_id integer references agent_llm(id),
      allow_embedding boolean not null default false,
      config jsonb,
      created_by integer references app_user(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index agent_name on agent (deployment_id, lower(name));
    create index agent_llm_use on agent (agent_llm_id);

    create table ai_engineer_settings (
      account_id integer primary key references account(id) on delete cascade,
      enabled boolean not null default true,
      token_ttl_seconds integer not null default 900,
      updated_by integer references app_user(id) on delete set null,
      updated_at timestamptz not null default now()
    );

    create table agent_region_choice (
      account_id integer not null references account(id) on delete cascade,
      user_id integer not null references app_user(id) on delete cascade,
      region_name text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (account_id, user_id)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table agent_region_choice; drop table ai_engineer_settings; drop table agent; drop table agent_llm`.execute(db);
}
