import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModules } from '../modules/index.js';
import { openTestStore, storeKinds } from '../test-support/stores.js';
import { accountColumnOf, NOTIFY_FUNCTION, type CacheDeclaration } from './cache-declaration.js';
import { declaredTriggers, installCacheTriggers, installedTriggers } from './cache-triggers.js';
import type { Store } from './store.js';

/** One trigger as the database has it or as a declaration asks for it, in comparable form. */
interface TriggerShape {
  table: string;
  channel: string;
  accountColumn: string;
  events: string[];
  /** The columns an update must touch; empty for any update. */
  columns: string[];
}

async function declared(): Promise<TriggerShape[]> {
  return (await loadModules())
    .flatMap((module) => module.caches ?? [])
    .flatMap(({ declaration }) =>
      Object.entries(declaration.tables).map(([table, dependency]) => ({
        table,
        channel: declaration.channel,
        accountColumn: accountColumnOf(dependency),
        events: ['delete', ...(dependency.inserts ? ['insert'] : []), 'update'],
        columns: dependency.updates === 'any' ? [] : [...dependency.updates].sort(),
      })),
    )
    .sort(byTableAndChannel);
}

// pg_trigger.tgtype bits.
const ROW = 1,
  BEFORE = 2,
  INSERT = 4,
  DELETE = 8,
  UPDATE = 16,
  TRUNCATE = 32;

async function installed(store: Store): Promise<Array<TriggerShape & { function: string; row: boolean; after: boolean }>> {
  const { rows } = await sql<{ table: string; type: number; args: string; columns: string[]; function: string }>`
    select c.relname as table, t.tgtype as type, encode(t.tgargs, 'escape') as args, p.proname as function,
      array(select a.attname::text from unnest(t.tgattr::int2[]) n
            join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = n order by 1) as columns
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
    where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace`.execute(store.db);
  return rows
    .map((row) => {
      const [channel = '', accountColumn = 'account_id'] = row.args.split('\\000').filter((arg) => arg !== '');
      const events = [
        [INSERT, 'insert'],
        [DELETE, 'delete'],
        [UPDATE, 'update'],
        [TRUNCATE, 'truncate'],
      ] as const;
      return {
        table: row.table,
        channel,
        accountColumn,
        events: events
          .filter(([bit]) => (row.type & bit) !== 0)
          .map(([, name]) => name)
          .sort(),
        columns: [...row.columns].sort(),
        function: row.function,
        row: (row.type & ROW) !== 0,
        after: (row.type & BEFORE) === 0,
      };
    })
    .sort(byTableAndChannel);
}

function byTableAndChannel(a: TriggerShape, b: TriggerShape): number {
  return a.table.localeCompare(b.table) || a.channel.localeCompare(b.channel);
}

describe.each(storeKinds)('cache triggers on %s', (kind) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(kind);
  });
  afterAll(async () => {
    await store.close();
  });

  it("are exactly the modules' cache declarations, each on the one generic function", async () => {
    const triggers = await installed(store);
    expect(triggers.map(({ function: fn, row, after }) => ({ fn, row, after }))).toEqual(
      triggers.map(() => ({ fn: NOTIFY_FUNCTION, row: true, after: true })),
    );
    expect(
      triggers.map(({ table, channel, accountColumn, events, columns }) => ({ table, channel, accountColumn, events, columns })),
    ).toEqual(await declared());
  });

  it('leave no per-cache notify function behind', async () => {
    const { rows } = await sql<{ name: string }>`
      select proname as name from pg_proc where proname like 'plinth_notify%' and pronamespace = current_schema()::regnamespace`.execute(
      store.db,
    );
    expect(rows.map((r) => r.name)).toEqual([NOTIFY_FUNCTION]);
  });

  it('notify the account of the row, and both accounts when an update moves it', async () => {
    const heard: Array<string | null> = [];
    await store.listen('plinth_embed_lookups', (payload) => heard.push(payload));
    const [a, b] = await Promise.all(
      ['trigger-a', 'trigger-b'].map((name) => store.db.insertInto('account').values({ name }).returning('id').executeTakeFirstOrThrow()),
    );
    const group = await store.db
      .insertInto('user_group')
      .values({ account_id: a!.id, name: 'g' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await store.db.updateTable('user_group').set({ account_id: b!.id }).where('id', '=', group.id).execute();
    await expect.poll(() => [...heard].sort(), { timeout: 5000 }).toEqual([String(a!.id), String(b!.id)].sort());
  });

  describe('generated from the declarations at migration time', () => {
    let declarations: CacheDeclaration[];
    const triggerOids = async () =>
      (await sql<{ oid: number }>`select oid::int from pg_trigger where tgname like '%_cache' order by 1`.execute(store.db)).rows;
    beforeAll(async () => {
      declarations = (await loadModules()).flatMap((module) => (module.caches ?? []).map((cache) => cache.declaration));
    });

    it('a store in step is left as it is', async () => {
      const before = await triggerOids();
      await installCacheTriggers(store, declarations);
      expect(await triggerOids()).toEqual(before);
    });

    it('a trigger missing, changed, or on no declaration any more is put right', async () => {
      await sql`drop trigger oauth_integration_oauth_integrations_cache on oauth_integration`.execute(store.db);
      await sql`drop trigger account_accounts_cache on account`.execute(store.db);
      await sql`create trigger account_accounts_cache after update of name on account for each row execute function plinth_notify_cache('plinth_accounts')`.execute(
        store.db,
      );
      await sql`create trigger folder_gone_cache after delete on folder for each row execute function plinth_notify_cache('plinth_gone')`.execute(
        store.db,
      );
      await installCacheTriggers(store, declarations);
      expect(await installedTriggers(store.db)).toEqual(declaredTriggers(declarations));
    });

    it("a new declaration's tables get their triggers, and lose them when it goes", async () => {
      const widgets: CacheDeclaration = {
        channel: 'plinth_widgets',
        tables: { folder: { updates: ['name', 'parent_id'], inserts: true } },
      };
      await installCacheTriggers(store, [...declarations, widgets]);
      expect((await installedTriggers(store.db)).filter((trigger) => trigger.table === 'folder')).toEqual([
        {
          name: 'folder_widgets_cache',
          table: 'folder',
          channel: 'plinth_widgets',
          accountColumn: 'account_id',
          events: ['delete', 'insert', 'update'],
          columns: ['name', 'parent_id'],
        },
      ]);
      await installCacheTriggers(store, declarations);
      expect(await installedTriggers(store.db)).toEqual(declaredTriggers(declarations));
    });
  });
});
