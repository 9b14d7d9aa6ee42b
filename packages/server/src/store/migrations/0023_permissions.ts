import { sql, type Kysely } from 'kysely';

/**
 * Issue 15, permissions per deployment (section 5 rule 5).
 *
 * `api_key.permissions`: a key created with its own permissions holds exactly those on its
 * deployments, not its role's (null for a key of a role, as every key before this migration).
 *
 * `resource_policy`: what a user or a group may do on a resource, as the reference's resource
 * policies state it: one action per (subject, resource). `resource_type` is the reference's name
 * (`Global`, `Deployment` now; the content types of the workspace later, without a migration), and
 * `resource_id` is the resource's id (0 for Global, the account itself). A subject's deletion
 * deletes its policies. A deployment's deletion leaves rows no one can reach (ids are never reused).
 *
 * The verified-credential cache loads both with a credential, so both (and group membership)
 * notify its channel, as CREDENTIALS_CACHE (modules/credentials/invalidation.ts) declares.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table api_key add column permissions text[];

    create table resource_policy (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      user_id integer references app_user(id) on delete cascade,
      group_id integer references user_group(id) on delete cascade,
      resource_type text not null,
      resource_id integer not null,
      action text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((user_id is null) <> (group_id is null))
    );
    create unique index resource_policy_user on resource_policy (user_id, resource_type, resource_id) where user_id is not null;
    create unique index resource_policy_group on resource_policy (group_id, resource_type, resource_id) where group_id is not null;
    create index resource_policy_resource on resource_policy (account_id, resource_type, resource_id);

    drop trigger api_key_credentials_cache on api_key;
    create trigger api_key_credentials_cache after update of revoked_at, role, deployment_ids, user_id, key_hash, permissions or delete
      on api_key for each row execute function plinth_notify_cache('plinth_credentials');
    create trigger resource_policy_credentials_cache after insert or update or delete
      on resource_policy for each row execute function plinth_notify_cache('plinth_credentials');
    create trigger group_member_credentials_cache after insert or update or delete
      on group_member for each row execute function plinth_notify_cache('plinth_credentials');
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop trigger group_member_credentials_cache on group_member;
    drop table resource_policy;
    drop trigger api_key_credentials_cache on api_key;
    create trigger api_key_credentials_cache after update of revoked_at, role, deployment_ids, user_id, key_hash or delete
      on api_key for each row execute function plinth_notify_cache('plinth_credentials');
    alter table api_key drop column permissions;
  `.execute(db);
}
