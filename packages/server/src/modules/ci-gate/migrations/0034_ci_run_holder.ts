import { sql, type Kysely } from 'kysely';

/**
 * A CI run's lease kept the way every row-held lease is (lease/store.ts): `holder` is the token
 * of whoever holds the run's lease, compared and set in one statement by renew and takeover, so
 * only the holder extends or ends it. A run already active keeps its lease until `lease_until`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table ci_run add column holder text;
    update ci_run set holder = 'ci-run#' || id where state = 'active';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table ci_run drop column holder`.execute(db);
}
