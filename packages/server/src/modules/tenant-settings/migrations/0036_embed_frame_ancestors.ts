import { sql, type Kysely } from 'kysely';

/**
 * The origins that may frame the account's embed pages (their CSP's frame-ancestors). Null, the
 * default, is any origin, as Cube's; a list limits framing to those origins.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table tenant_settings add column embed_frame_ancestors jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table tenant_settings drop column embed_frame_ancestors`.execute(db);
}
