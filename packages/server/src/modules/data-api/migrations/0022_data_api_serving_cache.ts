import { sql, type Kysely } from 'kysely';

/**
 * Issue 14: the data API keeps, per process, what each deployment serves (the branch's latest
 * successful build, the branch's kind, the warehouse variables), so a cached answer costs no
 * metadata query. These triggers tell every other server on the database when that changes; they
 * are the declaration DATA_API_SERVING_CACHE (modules/data-api/invalidation.ts), compared with the
 * database by cache-triggers.test.ts.
 */
const triggers: Array<[table: string, events: string]> = [
  ['deployment', 'update of id, account_id or delete'],
  ['model_build', 'insert or update of status, branch_name, commit_id, deployment_id, account_id or delete'],
  ['model_branch', 'update of name, kind, is_default, always_active, deployment_id, account_id or delete'],
  ['deployment_variable', 'insert or update or delete'],
];

const CHANNEL = 'plinth_data_api_serving';
const triggerName = (table: string) => `${table}_data_api_serving_cache`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, events] of triggers) {
    await sql
      .raw(
        `create trigger ${triggerName(table)} after ${events} on ${table} for each row execute function plinth_notify_cache('${CHANNEL}')`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table] of triggers) await sql.raw(`drop trigger ${triggerName(table)} on ${table}`).execute(db);
}
