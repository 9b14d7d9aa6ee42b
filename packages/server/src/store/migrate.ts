import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import { quoteIdent, type Store } from './store.js';
import { loadMigrations, migrationFiles, type MigrationFile } from './migration-files.js';
import { installCacheTriggers } from './cache-triggers.js';
import { loadModules } from '../modules/index.js';

/** The shared folder's migrations and every module's (migration-files.ts). */
class FolderMigrationProvider implements MigrationProvider {
  constructor(private readonly files: MigrationFile[]) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    return loadMigrations(this.files);
  }
}

/**
 * Applies every pending migration, then makes the cache triggers what the modules' cache
 * declarations say (cache-triggers.ts). Kysely holds a PostgreSQL advisory lock for the run, so
 * servers that start together on one database apply each migration exactly once and all come up.
 */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const applied = await applyMigrations(store);
  const modules = await loadModules();
  await installCacheTriggers(
    store,
    modules.flatMap((module) => (module.caches ?? []).map((cache) => cache.declaration)),
  );
  return applied;
}

async function applyMigrations(store: Store): Promise<string[]> {
  const files = migrationFiles();
  if (await upToDate(store, files)) return [];
  const migrator = new Migrator({
    db: store.db,
    provider: new FolderMigrationProvider(files),
    migrationTableSchema: store.schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause}`.replace('  ', ' '));
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Whether the store has applied exactly this code's migrations, read in two small queries. Every
 * start but the first and an upgrade finds it so; the Migrator would first introspect the whole
 * catalog several times over and take its lock, a third of a second of PGlite's start. Anything
 * else (no migration table yet, a migration missing on either side) goes to the Migrator, which
 * applies or refuses as it always did.
 */
async function upToDate(store: Store, files: MigrationFile[]): Promise<boolean> {
  const table = `${quoteIdent(store.schema)}.kysely_migration`;
  const { rows } = await sql<{ present: boolean }>`select to_regclass(${table}) is not null as present`.execute(store.db);
  if (!rows[0]?.present) return false;
  const applied = await sql<{ name: string }>`select name from ${sql.raw(table)}`.execute(store.db);
  const names = new Set(applied.rows.map((row) => row.name));
  const wanted = files.map((file) => file.name);
  return names.size === wanted.length && wanted.every((name) => names.has(name));
}
