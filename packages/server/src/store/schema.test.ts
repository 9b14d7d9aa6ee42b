import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModules } from '../modules/index.js';
import { databaseType, declaredSchema, tableDeclarations, type SchemaShape } from '../test-support/schema-shape.js';
import { openTestStore, storeKinds } from '../test-support/stores.js';
import type { Store } from './store.js';
import { MIGRATOR_TABLES, STORE_TABLES } from './tables.js';

async function migratedSchema(store: Store): Promise<SchemaShape> {
  const { rows } = await sql<{ table: string; column: string; data_type: string; udt_name: string; is_nullable: string }>`
    select c.table_name as table, c.column_name as column, c.data_type, c.udt_name, c.is_nullable
    from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(store.db);
  const shape: SchemaShape = {};
  for (const row of rows) {
    if (MIGRATOR_TABLES.includes(row.table)) continue;
    (shape[row.table] ??= {})[row.column] = { type: databaseType(row.data_type, row.udt_name), nullable: row.is_nullable === 'YES' };
  }
  return shape;
}

/** A jsonb column may hold anything; the hand-written type says what Plinth puts there. */
function comparable(declared: SchemaShape, migrated: SchemaShape): SchemaShape {
  const result: SchemaShape = {};
  for (const [table, columns] of Object.entries(declared)) {
    result[table] = {};
    for (const [column, shape] of Object.entries(columns)) {
      result[table][column] = migrated[table]?.[column]?.type === 'json' ? { ...shape, type: 'json' } : shape;
    }
  }
  return result;
}

describe('store/schema.ts', () => {
  const declared = declaredSchema();

  describe.each(storeKinds)('against the migrated database on %s', (kind) => {
    let store: Store;
    beforeAll(async () => {
      store = await openTestStore(kind);
    });
    afterAll(async () => {
      await store.close();
    });

    it('has every table and column, with its nullability and (coarse) type', async () => {
      const migrated = await migratedSchema(store);
      expect(comparable(declared, migrated)).toEqual(migrated);
    });
  });

  it('every table belongs to exactly one module (or to the store itself)', async () => {
    const modules = await loadModules();
    const owners = new Map<string, string[]>();
    for (const module of modules) for (const table of module.tables ?? []) owners.set(table, [...(owners.get(table) ?? []), module.name]);
    for (const table of STORE_TABLES) owners.set(table, [...(owners.get(table) ?? []), 'store']);
    const tables = [...new Set([...Object.keys(declared), ...owners.keys()])].sort();
    const unowned = tables.filter((table) => (owners.get(table)?.length ?? 0) !== 1 && !STORE_TABLES.includes(table));
    expect(unowned.map((table) => `${table}: ${owners.get(table)?.join(', ') ?? 'no module'}`)).toEqual([]);
    expect(tables.filter((table) => !(table in declared) && !STORE_TABLES.includes(table))).toEqual([]);
  });

  it("each table's type is declared in the folder of the module that owns it, the store's own in store/schema.ts", async () => {
    const modules = await loadModules();
    const owner = new Map<string, string>(
      modules.flatMap((module) => (module.tables ?? []).map((table) => [table, `modules/${module.name}/tables.ts`] as const)),
    );
    const misplaced = [...tableDeclarations()]
      .map(([table, file]) => ({ table, file: file.replace(/^.*\/src\//, '') }))
      .filter(({ table, file }) => file !== (owner.get(table) ?? 'store/schema.ts'))
      .map(({ table, file }) => `${table} in ${file}`);
    expect(misplaced).toEqual([]);
  });
});
