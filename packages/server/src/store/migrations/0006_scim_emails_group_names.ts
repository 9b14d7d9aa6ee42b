import { sql, type Kysely } from 'kysely';

/**
 * SCIM gaps of issue 4. Users keep the e-mail addresses a provisioning client sends (jsonb array
 * of {value, type?, primary?, display?}); null means "none sent", and SCIM then presents userName
 * as the one work address, as before. Group names become unique case-insensitively, because SCIM
 * declares displayName caseExact false: "Admins" and "admins" would otherwise be two groups a
 * client cannot tell apart with `displayName eq`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const clashes = await sql<{ account_id: number; names: string }>`
    select account_id, string_agg(name, ', ' order by id) as names
    from user_group group by account_id, lower(name) having count(*) > 1
  `.execute(db);
  if (clashes.rows.length > 0) {
    // Renaming groups here would silently break whoever resolves them by exact name (embedding).
    const list = clashes.rows.map((r) => `account ${r.account_id}: ${r.names}`).join('; ');
    throw new Error(`Group names that differ only in case must be renamed before this upgrade (${list})`);
  }
  await sql`
    alter table app_user add column emails jsonb;
    drop index user_group_lower_name;
    create unique index user_group_lower_name on user_group (account_id, lower(name));
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index user_group_lower_name;
    create index user_group_lower_name on user_group (account_id, lower(name));
    alter table app_user drop column emails;
  `.execute(db);
}
