import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPGlite } from './pglite-create.js';

/**
 * The data directory PGlite's initdb makes, made once by `npm run build` (scripts/pglite-template.mjs)
 * rather than on each first start: initdb in WASM took 2.5-7 s of the first start on a 2-core
 * machine, and left some 500 MiB of garbage (a second PostgreSQL and initdb's own heap) resident
 * until a collection came. Copying the directory takes a fraction of a second. It is keyed by
 * PGlite's version, so an upgrade never starts from another version's files; without one, PGlite
 * runs initdb as before. It holds no migration: the server applies those itself.
 */
export function templateDir(): string {
  const wasm = createRequire(import.meta.url).resolve('@electric-sql/pglite/pglite.wasm');
  const { version } = JSON.parse(readFileSync(join(dirname(wasm), '..', 'package.json'), 'utf8')) as { version: string };
  // The same place from src/store (under vitest) and dist/store: packages/server/dist.
  return join(fileURLToPath(new URL('../../dist/', import.meta.url)), `pglite-initdb-${version}`);
}

/**
 * Fills an embedded store's data directory from the template when it has none yet (missing or
 * empty, as a first start finds it). The copy is renamed into place, so a start that is stopped
 * half-way leaves either no data directory or a whole one. Answers whether it did.
 */
export function seedFromTemplate(dataDir: string, template = templateDir()): boolean {
  if (!existsSync(join(template, 'PG_VERSION'))) return false;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  const copy = `${dataDir}.seed-${process.pid}`;
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(dirname(dataDir), { recursive: true });
  try {
    cpSync(template, copy, { recursive: true, preserveTimestamps: true });
    if (existsSync(dataDir)) rmdirSync(dataDir);
    renameSync(copy, dataDir);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  return true;
}

/** Runs PGlite's initdb into the template directory, unless this PGlite version's is there already. */
export async function makeTemplate(template = templateDir()): Promise<'made' | 'present'> {
  if (existsSync(join(template, 'PG_VERSION'))) return 'present';
  const making = `${template}.making-${process.pid}`;
  rmSync(making, { recursive: true, force: true });
  mkdirSync(making, { recursive: true });
  try {
    // The options the store opens with, so the files are what a first start's initdb writes.
    const pglite = await createPGlite({ dataDir: making });
    await pglite.close();
    rmSync(template, { recursive: true, force: true });
    renameSync(making, template);
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
  return 'made';
}
