import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type RootOperationNode } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { CacheDeclaration } from './cache-declaration.js';
import { rawWrites } from './raw-writes.js';
import type { Database } from './schema.js';
import { changedAccounts } from './write-watch.js';
import { writesOf } from './write-nodes.js';

/** Builds statements without running them: the watch reads only their trees. */
const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const watched: CacheDeclaration['tables'] = {
  app_user: { updates: ['active', 'role', 'account_id'] },
  tenant_settings: { updates: ['use_creator_mode'], inserts: true },
  account: { updates: ['name'], inserts: true, accountColumn: 'id' },
  oauth_integration: { updates: 'any' },
};

function changed(query: { toOperationNode(): unknown }) {
  const node = query.toOperationNode() as RootOperationNode;
  return changedAccounts(node.kind === 'RawNode' ? rawWrites(node) : writesOf(node), watched);
}

describe('which accounts a write changed', () => {
  it('an update or delete pinned by its where clause belongs to that account', () => {
    expect(changed(db.updateTable('app_user').set({ active: false }).where('account_id', '=', 7).where('id', '=', 3))).toEqual([7]);
    expect(changed(db.deleteFrom('app_user').where('id', '=', 3).where('account_id', 'in', [7, 8]))).toEqual([7, 8]);
    expect(changed(db.updateTable('account').set({ name: 'n' }).where('id', '=', 5))).toEqual([5]);
  });

  it('forgets everything when the statement does not tell the account', () => {
    expect(changed(db.updateTable('app_user').set({ active: false }).where('id', '=', 3))).toBe('all');
    expect(
      changed(
        db
          .updateTable('app_user')
          .set({ active: false })
          .where((eb) => eb.or([eb('account_id', '=', 1), eb('id', '=', 3)])),
      ),
    ).toBe('all');
    // Moving a row to another account changes the account it left too.
    expect(changed(db.updateTable('app_user').set({ account_id: 2 }).where('account_id', '=', 1))).toBe('all');
  });

  it('ignores writes that touch no watched column and tables nobody watches', () => {
    expect(changed(db.updateTable('app_user').set({ display_name: 'x' }).where('id', '=', 3))).toBeUndefined();
    expect(changed(db.updateTable('deployment').set({ name: 'x' }).where('id', '=', 3))).toBeUndefined();
    expect(changed(db.insertInto('app_user').values({ account_id: 1, email: 'a@b.c', role: 'member' }))).toBeUndefined();
    expect(changed(db.selectFrom('app_user').selectAll())).toBeUndefined();
  });

  it('an insert belongs to the accounts of its values, where inserts matter', () => {
    expect(changed(db.insertInto('tenant_settings').values([{ account_id: 4 }, { account_id: 9 }]))).toEqual([4, 9]);
    expect(changed(db.insertInto('account').values({ name: 'x' }))).toBe('all');
  });

  it('an upsert is pinned only when the conflict target holds the account', () => {
    const upsert = db.insertInto('tenant_settings').values({ account_id: 4, use_creator_mode: true });
    expect(changed(upsert.onConflict((oc) => oc.column('account_id').doUpdateSet({ use_creator_mode: true })))).toEqual([4]);
    const byId = db.insertInto('oauth_integration').values({ id: 1, account_id: 4 } as never);
    expect(changed(byId.onConflict((oc) => oc.column('id').doUpdateSet({ name: 'x' })))).toBe('all');
  });

  it('sees writes inside with clauses', () => {
    const query = db
      .with('gone', (q) => q.deleteFrom('app_user').where('account_id', '=', 6).returning('id'))
      .selectFrom('gone')
      .selectAll();
    expect(changed(query)).toEqual([6]);
  });

  it('reads raw SQL: its tables, and one account when every account_id comparison names it', () => {
    expect(changed(sql`update app_user set active = false where account_id = ${3} and id = ${9}`)).toEqual([3]);
    expect(changed(sql`update app_user set active = false where id = ${9}`)).toBe('all');
    expect(changed(sql`delete from ${sql.table('app_user')} u where u.account_id = ${3}`)).toEqual([3]);
    expect(changed(sql`insert into tenant_settings (account_id) values (${3})`)).toBe('all');
    expect(changed(sql`update embed_account set external_user_count = 1 where account_id = ${3}`)).toBeUndefined();
    expect(changed(sql`select * from app_user for update skip locked`)).toBeUndefined();
  });
});
