import { sql, type Kysely } from 'kysely';
import { accountColumnOf, NOTIFY_FUNCTION, type CacheDeclaration } from './cache-declaration.js';
import type { Database } from './schema.js';
import type { Store } from './store.js';

/** One trigger on `plinth_notify_cache`, as a declaration asks for it or as the database has it. */
export interface CacheTrigger {
  name: string;
  table: string;
  channel: string;
  accountColumn: string;
  /** `insert`, `update`, `delete`, sorted. */
  events: string[];
  /** The columns an update must touch, sorted; empty for any update. */
  columns: string[];
}

/**
 * The triggers the declarations need, one per table and channel. Named as migrations 0016, 0022
 * and 0023 named the triggers they created by hand, so a store those migrations set up is
 * already in step and nothing is recreated on its first start with this code.
 */
export function declaredTriggers(declarations: readonly CacheDeclaration[]): CacheTrigger[] {
  return declarations
    .flatMap((declaration) =>
      Object.entries(declaration.tables).map(([table, dependency]) => ({
        name: `${table}_${declaration.channel.replace(/^plinth_/, '')}_cache`,
        table,
        channel: declaration.channel,
        accountColumn: accountColumnOf(dependency),
        events: ['delete', ...(dependency.inserts ? ['insert'] : []), 'update'],
        columns: dependency.updates === 'any' ? [] : [...dependency.updates].sort(),
      })),
    )
    .sort(byName);
}

const byName = (a: CacheTrigger, b: CacheTrigger) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

// pg_trigger.tgtype bits.
const INSERT = 4,
  DELETE = 8,
  UPDATE = 16;

/** The triggers of the store's schema that call the notify function. */
export async function installedTriggers(db: Kysely<Database>): Promise<CacheTrigger[]> {
  const { rows } = await sql<{ name: string; table: string; type: number; args: string; columns: string[] }>`
    select t.tgname as name, c.relname as table, t.tgtype as type, encode(t.tgargs, 'escape') as args,
      array(select a.attname::text from unnest(t.tgattr::int2[]) n
            join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = n order by 1) as columns
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
    where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace and p.proname = ${NOTIFY_FUNCTION}`.execute(db);
  return rows
    .map((row) => {
      const [channel = '', accountColumn = 'account_id'] = row.args.split('\\000').filter((arg) => arg !== '');
      const events = (
        [
          [INSERT, 'insert'],
          [DELETE, 'delete'],
          [UPDATE, 'update'],
        ] as const
      )
        .filter(([bit]) => (row.type & bit) !== 0)
        .map(([, event]) => event)
        .sort();
      return { name: row.name, table: row.table, channel, accountColumn, events, columns: [...row.columns].sort() };
    })
    .sort(byName);
}

const same = (a: CacheTrigger, b: CacheTrigger) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Makes the store's cache triggers exactly what the modules' cache declarations say, after the
 * migrations: a trigger a declaration needs is created (or recreated when its events changed),
 * one no declaration needs is dropped. A declaration is then the only place a cache's
 * dependencies are written; no migration copies it. Servers starting together on one database
 * take turns (an advisory lock), and a store already in step costs one catalog query.
 */
export async function installCacheTriggers(store: Store, declarations: readonly CacheDeclaration[]): Promise<void> {
  const wanted = declaredTriggers(declarations);
  if (isInStep(wanted, await installedTriggers(store.db))) return;
  await store.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('plinth_cache_triggers'))`.execute(trx);
    const installed = await installedTriggers(trx);
    for (const trigger of installed) {
      if (!wanted.some((w) => same(w, trigger)))
        await sql`drop trigger ${sql.ref(trigger.name)} on ${sql.table(trigger.table)}`.execute(trx);
    }
    for (const trigger of wanted) {
      if (installed.some((i) => same(i, trigger))) continue;
      await sql`drop trigger if exists ${sql.ref(trigger.name)} on ${sql.table(trigger.table)}`.execute(trx);
      await sql
        .raw(
          `create trigger ${quote(trigger.name)} after ${eventsSql(trigger)} on ${quote(trigger.table)} for each row ` +
            `execute function ${NOTIFY_FUNCTION}(${argumentsSql(trigger)})`,
        )
        .execute(trx);
    }
  });
}

function isInStep(wanted: CacheTrigger[], installed: CacheTrigger[]): boolean {
  return wanted.length === installed.length && wanted.every((trigger, i) => same(trigger, installed[i]!));
}

function eventsSql(trigger: CacheTrigger): string {
  const update = trigger.columns.length > 0 ? `update of ${trigger.columns.map(quote).join(', ')}` : 'update';
  return [...(trigger.events.includes('insert') ? ['insert'] : []), update, 'delete'].join(' or ');
}

function argumentsSql(trigger: CacheTrigger): string {
  const args = [trigger.channel, ...(trigger.accountColumn === 'account_id' ? [] : [trigger.accountColumn])];
  return args.map((arg) => `'${arg.replace(/'/g, "''")}'`).join(', ');
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
