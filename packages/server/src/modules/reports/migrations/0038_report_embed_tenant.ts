import { sql, type Kysely } from 'kysely';

/**
 * A report made in creator mode belongs to the session's embed tenant, as its workbook does
 * (workbooks' 0037): null for the account's own reports; it goes with the tenant (cascade).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table report add column embed_tenant_id integer references embed_tenant(id) on delete cascade;
    create index report_embed_tenant on report (embed_tenant_id, deployment_id, id) where embed_tenant_id is not null;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table report drop column embed_tenant_id`.execute(db);
}
