import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from './pglite-dialect.js';
import { createPGlite } from './pglite-create.js';
import { seedFromTemplate } from './pglite-template.js';
import { preparingPool } from './prepared.js';
import { introspectingSchema } from './schema-introspector.js';
import { inContext } from './transaction.js';
import { WriteWatchPlugin, type ChangedAccounts, type WatchedWrites } from './write-watch.js';
import type { Database } from './schema.js';

export type StoreKind = 'pglite' | 'postgres';

export interface Store {
  readonly kind: StoreKind;
  readonly db: Kysely<Database>;
  /** The PostgreSQL schema that holds Plinth's tables (`public` unless a test isolates itself). */
  readonly schema: string;
  ping(): Promise<void>;
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel`, from this process or any other
   * on the same database. After a lost connection it calls `onMessage(null)`: messages may have
   * been missed, so whatever they would have invalidated must be treated as stale.
   */
  listen(channel: string, onMessage: (payload: string | null) => void): Promise<void>;
  /** Calls `onWrite` with the accounts written right after this process writes the watched rows. */
  watchWrites(writes: WatchedWrites, onWrite: (accounts: ChangedAccounts) => void): void;
  close(): Promise<void>;
}

export type StoreOptions =
  | {
      kind: 'pglite';
      dataDir?: string | undefined;
      /** A data directory dumped by PGlite's dumpDataDir to start from (tests load a migrated one). */
      template?: Blob | undefined;
    }
  | {
      kind: 'postgres';
      url: string;
      schema?: string | undefined;
      poolSize?: number | undefined;
      /** Settings of every session (`SET name = value`), such as the tests' synchronous_commit. */
      settings?: Record<string, string> | undefined;
    };

// The one place where the two drivers' differences are normalised: `pg` returns int8 (count(*),
// bigint ids) and numeric as strings, PGlite returns int8 as a number. Plinth never stores an int8
// past 2^53, so both parse int8 as a number; numeric stays a string on both, as PGlite returns it.
const INT8_OID = 20;
const typesOf = (types: typeof pg.types) =>
  ({
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8_OID) return (value: string) => Number(value);
      return types.getTypeParser(oid, format);
    },
  }) as pg.CustomTypesConfig;

export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.kind === 'postgres') return openPostgres(options.url, options.schema ?? 'public', options.poolSize, options.settings);
  return openPGlite(options.dataDir, options.template);
}

async function openPostgres(url: string, schema: string, poolSize = 20, settings: Record<string, string> = {}): Promise<Store> {
  // Imported here: an embedded store never needs `pg`, some 4 MiB and 25-60 ms of its start.
  const [{ default: pg }, { PostgresListeners }] = await Promise.all([import('pg'), import('./postgres-listeners.js')]);
  const options = Object.entries({ ...(schema === 'public' ? {} : { search_path: quoteIdent(schema) }), ...settings })
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: typesOf(pg.types), ...(options ? { options } : {}) });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  if (schema !== 'public') await createSchema(pool, schema);
  const writes = new WriteWatchPlugin();
  const dialect = introspectingSchema(inContext(new PostgresDialect({ pool: preparingPool(pool) })), schema);
  const db = new Kysely<Database>({ dialect, plugins: [writes] });
  const listeners = new PostgresListeners(url);
  return {
    kind: 'postgres',
    db,
    schema,
    async ping() {
      await pool.query('select 1');
    },
    listen: (channel, onMessage) => listeners.add(channel, onMessage),
    watchWrites: (watched, onWrite) => writes.watch(watched, onWrite),
    async close() {
      await listeners.close();
      await db.destroy();
    },
  };
}

async function openPGlite(dataDir: string | undefined, template: Blob | undefined): Promise<Store> {
  if (dataDir) {
    // A template Blob (the tests') is PGlite's to load; an empty data dir otherwise starts from the built initdb.
    const seeded = template === undefined && seedFromTemplate(dataDir);
    if (!seeded) mkdirSync(dataDir, { recursive: true });
  }
  return pgliteStore(await createPGlite({ ...(dataDir ? { dataDir } : {}), ...(template ? { loadDataDir: template } : {}) }));
}

/** A store over an open PGlite, which it closes on close. */
export function pgliteStore(pglite: PGlite): Store {
  const writes = new WriteWatchPlugin();
  const db = new Kysely<Database>({ dialect: inContext(new PGliteDialect(pglite)), plugins: [writes] });
  return {
    kind: 'pglite',
    db,
    schema: 'public',
    async ping() {
      await pglite.query('select 1');
    },
    async listen(channel, onMessage) {
      await pglite.listen(channel, onMessage);
    },
    watchWrites: (watched, onWrite) => writes.watch(watched, onWrite),
    async close() {
      await db.destroy();
      await pglite.close();
    },
  };
}

/**
 * `create schema if not exists` is not safe against itself: two servers running it at once can both
 * pass the check, and the loser fails on the catalog's unique index. Losing that race is success.
 */
async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  try {
    await pool.query(`create schema if not exists ${quoteIdent(schema)}`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== '23505' && code !== '42P06') throw error;
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
