import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { migrateToLatest } from '../store/migrate.js';
import { openStore, type Store, type StoreKind } from '../store/store.js';

/**
 * PGlite always; PostgreSQL too when DATABASE_URL is set (CI sets it). PLINTH_TEST_STORES narrows
 * the list (`postgres`): a mutation run restarts the test server for every mutant, and PostgreSQL
 * starts in a second where PGlite takes several.
 */
const defaultKinds: StoreKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
export const storeKinds: StoreKind[] = process.env.PLINTH_TEST_STORES
  ? defaultKinds.filter((kind) => process.env.PLINTH_TEST_STORES!.split(',').includes(kind))
  : defaultKinds;

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (a tar file) that every test store of the run starts from. */
    pgliteTemplate: string;
  }
}

let templateBlob: Promise<Blob | undefined> | undefined;

/** The migrated data directory that global-setup.ts made for this run (absent in runs without it). */
function pgliteTemplate(): Promise<Blob | undefined> {
  return (templateBlob ??= (async () => {
    const file = inject('pgliteTemplate');
    return file ? new Blob([await readFile(file)]) : undefined;
  })());
}

/**
 * A migrated store of its own for one test file. On PostgreSQL it lives in a fresh schema that is
 * dropped on close, so test files running side by side on one database never see each other.
 */
export async function openTestStore(kind: StoreKind): Promise<Store> {
  if (kind === 'pglite') {
    const template = await pgliteTemplate();
    if (template) return openStore({ kind: 'pglite', template });
    const store = await openStore({ kind: 'pglite' });
    await migrateToLatest(store);
    return store;
  }
  const url = process.env.DATABASE_URL!;
  const schema = `plinth_test_${randomBytes(6).toString('hex')}`;
  const store = await openStore({ kind: 'postgres', url, schema, poolSize: 5 });
  await migrateToLatest(store);
  return {
    ...store,
    async close() {
      await store.close();
      const cleanup = await openStore({ kind: 'postgres', url, poolSize: 1 });
      await cleanup.db.schema.dropSchema(schema).ifExists().cascade().execute();
      await cleanup.close();
    },
  };
}

/**
 * A migrated store in a PostgreSQL database of its own, dropped on close (PGlite is always alone).
 * For a test that reads a plan depending on vacuum's visibility map: a transaction open anywhere
 * else in the same database (another test file's, in a schema of its own) holds back the horizon,
 * so vacuum cannot mark the pages all-visible and the planner rightly turns away from an
 * index-only scan. Transactions in other databases do not hold back this one's tables.
 */
export async function openTestStoreInOwnDatabase(kind: StoreKind): Promise<Store> {
  if (kind === 'pglite') return openTestStore(kind);
  const serverUrl = process.env.DATABASE_URL!;
  const database = `plinth_test_${randomBytes(6).toString('hex')}`;
  const admin = await openStore({ kind: 'postgres', url: serverUrl, poolSize: 1 });
  await sql.raw(`create database ${database}`).execute(admin.db);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const store = await openStore({ kind: 'postgres', url: url.toString(), poolSize: 2 });
  await migrateToLatest(store);
  return {
    ...store,
    async close() {
      await store.close();
      await sql.raw(`drop database if exists ${database} with (force)`).execute(admin.db);
      await admin.close();
    },
  };
}
