import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migrateToLatest } from '../store/migrate.js';
import pg from 'pg';
import { makeTemplate } from '../store/pglite-template.js';
import { openStore, pgliteStore } from '../store/store.js';
import { BUILT_PROJECTS } from './built.js';
import { databaseUrl } from './database-url.js';
import type {} from './stores.js';

/**
 * Runs once per `vitest run`, before any test file: migrating a fresh PGlite costs seconds of
 * WASM start-up and initdb, loading a migrated copy a fraction of that, and some three hundred
 * test stores are opened per run. The migration tests still migrate stores of their own.
 */
export async function setup(project: TestProject) {
  buildEntryPoints();
  // As `npm run build` does: first starts of the servers the tests spawn copy it, as a user's do.
  await makeTemplate();
  const dir = mkdtempSync(join(tmpdir(), 'plinth-pglite-template-'));
  const file = join(dir, 'migrated.tar');
  const pglite = await PGlite.create();
  const store = pgliteStore(pglite);
  await migrateToLatest(store);
  writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await store.close();
  project.provide('pgliteTemplate', file);
  const postgres = process.env.DATABASE_URL ? await postgresTemplate() : undefined;
  if (postgres) project.provide('postgresTemplate', postgres.name);
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    await postgres?.drop();
  };
}

/**
 * A migrated database on DATABASE_URL's server, which test stores copy (CREATE DATABASE …
 * TEMPLATE). A run killed before its teardown leaves it behind: another run may be using its own,
 * so none is dropped but this run's.
 */
async function postgresTemplate(): Promise<{ name: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const name = `plinth_template_${randomBytes(6).toString('hex')}`;
  await admin.query(`create database ${name}`);
  const store = await openStore({ kind: 'postgres', url: databaseUrl(name), poolSize: 1 });
  await migrateToLatest(store);
  await store.close();
  return {
    name,
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * Brings dist/ up to date (`tsc -b`, as `npm run build`; nearly free when nothing changed), so
 * processes the tests start run this checkout's code without compiling it each time, and tells
 * the test processes so (engine worker threads then load the build too).
 */
function buildEntryPoints() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', ...BUILT_PROJECTS], { stdio: 'inherit' });
  // As `npm run build`: the built server finds modules and migrations by their folders in dist.
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/prune-dist.mjs', import.meta.url))], { stdio: 'inherit' });
  process.env.PLINTH_TEST_BUILT = '1';
}
