import { sql, type Kysely } from 'kysely';

/**
 * Content made in creator mode belongs to the embed tenant of the session that made it: a
 * workbook and the dashboard it publishes carry the tenant (null for the account's own content),
 * and only sessions of that tenant see them. The tenant's content goes with the tenant, as its
 * groups, attributes and users do (cascade). The partial index serves a tenant's listing and the
 * cascade; the account's own content keeps using workbook_deployment.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table workbook add column embed_tenant_id integer references embed_tenant(id) on delete cascade;
    create index workbook_embed_tenant on workbook (embed_tenant_id, deployment_id, id) where embed_tenant_id is not null;
    alter table dashboard add column embed_tenant_id integer references embed_tenant(id) on delete cascade;
    create index dashboard_embed_tenant on dashboard (embed_tenant_id) where embed_tenant_id is not null;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table dashboard drop column embed_tenant_id;
    alter table workbook drop column embed_tenant_id;
  `.execute(db);
}
