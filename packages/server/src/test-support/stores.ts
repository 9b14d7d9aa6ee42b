import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { migrateToLatest } from '../store/migrate.js';
import { openStore, type Store, type StoreKind } from '../store/store.js';
import { databaseUrl } from './database-url.js';

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
    /** A migrated PostgreSQL database that every PostgreSQL test store of the run is copied from. */
    postgresTemplate: string;
  }
}

/**
 * A test's commit need not wait for the WAL to reach the disk: nothing of a test outlives the run,
 * and the flush at every commit of the migrations and the tests was a tenth of a run's time.
 */
const TEST_SESSION = { synchronous_commit: 'off' };

let templateBlob: Promise<Blob | undefined> | undefined;

/** The migrated data directory that global-setup.ts made for this run (absent in runs without it). */
function pgliteTemplate(): Promise<Blob | undefined> {
  return (templateBlob ??= (async () => {
    const file = inject('pgliteTemplate');
    return file ? new Blob([await readFile(file)]) : undefined;
  })());
}

/**
 * A migrated store of its own for one test file. On PostgreSQL it is a database of its own, made
 * from the migrated template of the run (global-setup.ts) and dropped on close: copying a template
 * costs a fraction of running the migrations, and a transaction another file holds open never
 * holds back vacuum in this one (a plan test reads the visibility map).
 */
export async function openTestStore(kind: StoreKind): Promise<Store> {
  if (kind === 'pglite') {
    const template = await pgliteTemplate();
    if (template) return openStore({ kind: 'pglite', template });
    const store = await openStore({ kind: 'pglite' });
    await migrateToLatest(store);
    return store;
  }
  const template = inject('postgresTemplate');
  const database = `plinth_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${database}${template ? ` template ${template}` : ''}`);
  const url = databaseUrl(database);
  const store = await openStore({ kind: 'postgres', url, poolSize: 5, settings: TEST_SESSION });
  if (!template) await migrateToLatest(store);
  storeUrls.set(store.db, url);
  return {
    ...store,
    async close() {
      await store.close();
      await adminQuery(`drop database if exists ${database} with (force)`);
    },
  };
}

/** Where each PostgreSQL test store lives, for a second connection to it (openTestStoreAgain). */
const storeUrls = new WeakMap<Store['db'], string>();

/**
 * Another handle on a PostgreSQL test store, as a second server process on the same database has:
 * its own pool, listeners and caches. The caller closes it.
 */
export function openTestStoreAgain(store: Store, poolSize = 1): Promise<Store> {
  const url = storeUrls.get(store.db);
  if (store.kind !== 'postgres' || !url) throw new Error('openTestStoreAgain takes a PostgreSQL store of openTestStore');
  return openStore({ kind: 'postgres', url, schema: store.schema, poolSize, settings: TEST_SESSION });
}

let admin: pg.Pool | undefined;

/**
 * Creates and drops the test databases, on the server's own database. Idle, it lets the process
 * end: test files share their process and none of them owns this pool.
 */
async function adminQuery(text: string): Promise<void> {
  admin ??= new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2, idleTimeoutMillis: 1000, allowExitOnIdle: true });
  await admin.query(text);
}
