import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Migration } from 'kysely';
import { MODULES_DIR, moduleFolders } from '../modules/index.js';

/** Migrations that span several modules' tables (the foundation, the job queue, the cache function). */
export const SHARED_MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Sources under vitest and tsx end in .ts, the built server's in .js, as this file does. */
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/**
 * A migration's file name is its name, recorded by every store that applied it, so a file is
 * never renamed. Names keep one four-digit sequence across every folder: the migrator applies
 * them in name order and refuses a store that has applied one sorting after a pending one, so a
 * new migration, whichever module holds it, takes the next number after the highest anywhere
 * (migration-files.test.ts refuses two with one number). Timestamped names with unordered
 * migrations would spare branches reserving numbers, but would let the order in which two
 * modules' migrations run differ between stores.
 */
const NAME = /^\d{4}_[a-z0-9_]+$/;

export interface MigrationFile {
  name: string;
  /** Where it lives: `store` for the shared folder, else the module's folder name. */
  owner: string;
  path: string;
}

/** The folders migrations are read from: the shared one, then each module's `migrations/`. */
export function migrationFolders(modulesDir = MODULES_DIR): Array<{ owner: string; dir: string }> {
  return [
    { owner: 'store', dir: SHARED_MIGRATIONS_DIR },
    ...moduleFolders(modulesDir).map((folder) => ({ owner: folder, dir: join(modulesDir, folder, 'migrations') })),
  ].filter(({ dir }) => existsSync(dir));
}

/** Every migration file of the shared folder and the modules', in the order they are applied. */
export function migrationFiles(modulesDir = MODULES_DIR): MigrationFile[] {
  const files = migrationFolders(modulesDir).flatMap(({ owner, dir }) =>
    readdirSync(dir)
      .filter((file) => file.endsWith(EXTENSION) && !file.endsWith(`.d${EXTENSION}`) && !file.includes('.test.'))
      .map((file) => ({ name: file.slice(0, -EXTENSION.length), owner, path: join(dir, file) })),
  );
  const wrong = files.filter((file) => !NAME.test(file.name)).map((file) => file.path);
  if (wrong.length > 0) throw new Error(`Migration files must be named like 0001_words: ${wrong.join(', ')}`);
  const names = files.map((file) => file.name);
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (twice.length > 0) throw new Error(`Two migration files have the name ${twice.join(', ')}`);
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The migrations themselves, imported only when the migrator has something to apply. */
export async function loadMigrations(files = migrationFiles()): Promise<Record<string, Migration>> {
  const loaded = await Promise.all(
    files.map(async (file) => [file.name, (await import(pathToFileURL(file.path).href)) as Migration] as const),
  );
  return Object.fromEntries(loaded);
}
