import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from './migrate.js';
import { migrationFiles } from './migration-files.js';
import { openStore } from './store.js';
import { openTestStore, storeKinds } from '../test-support/stores.js';

const migrationNames = () => migrationFiles().map((file) => file.name);

describe.each(storeKinds)('metadata store [%s]', (kind) => {
  it('normalises the drivers: count(*) and int8 are numbers, numeric stays a string', async () => {
    const store = await openTestStore(kind);
    try {
      const row = await sql<{ c: unknown; big: unknown; num: unknown }>`
        select count(*) as c, 9007199254740991::bigint as big, 1.50::numeric as num`.execute(store.db);
      expect(row.rows[0]).toEqual({ c: 1, big: 9007199254740991, num: '1.50' });
      const counted = await store.db
        .selectFrom('account')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(counted.n).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('a second migration run applies nothing', async () => {
    const store = await openTestStore(kind);
    try {
      expect(await migrateToLatest(store)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('a store that applied a migration this code does not know is refused, as the migrator always did', async () => {
    const store = await openTestStore(kind);
    try {
      await sql`insert into kysely_migration (name, timestamp) values ('9999_from_a_newer_server', now())`.execute(store.db);
      await expect(migrateToLatest(store)).rejects.toThrow(/9999_from_a_newer_server/);
    } finally {
      await store.close();
    }
  });
});

describe('embedded store on disk', () => {
  it('keeps its data across a restart in the data dir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plinth-pglite-'));
    try {
      const first = await openStore({ kind: 'pglite', dataDir: dir });
      expect(await migrateToLatest(first)).toEqual(migrationNames());
      await first.db.insertInto('account').values({ name: 'kept' }).execute();
      await first.close();
      const second = await openStore({ kind: 'pglite', dataDir: dir });
      expect(await migrateToLatest(second)).toEqual([]);
      const row = await second.db.selectFrom('account').select('name').executeTakeFirst();
      expect(row?.name).toBe('kept');
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(process.env.DATABASE_URL)('migrations under a lock on PostgreSQL', () => {
  it('two servers starting together on one database both come up, with each migration applied once', async () => {
    const schema = `plinth_race_${randomBytes(5).toString('hex')}`;
    const url = process.env.DATABASE_URL!;
    const [a, b] = await Promise.all([
      openStore({ kind: 'postgres', url, schema, poolSize: 3 }),
      openStore({ kind: 'postgres', url, schema, poolSize: 3 }),
    ]);
    try {
      const [appliedByA, appliedByB] = await Promise.all([migrateToLatest(a), migrateToLatest(b)]);
      expect([...appliedByA, ...appliedByB].sort()).toEqual(migrationNames().sort());
      const rows = await sql<{ name: string }>`select name from ${sql.table(`${schema}.kysely_migration`)}`.execute(a.db);
      expect(rows.rows.map((r) => r.name).sort()).toEqual(migrationNames().sort());
    } finally {
      await a.close();
      await b.db.schema.dropSchema(schema).cascade().execute();
      await b.close();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)('migrations beside other schemas on PostgreSQL', () => {
  it("introspection sees the store's own schema alone, Kysely's tables only when asked", async () => {
    const store = await openTestStore('postgres');
    try {
      const tables = await store.db.introspection.getTables();
      expect(tables.length).toBeGreaterThan(10);
      expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([store.schema]));
      expect(tables.map((t) => t.name)).not.toContain('kysely_migration');
      const account = tables.find((t) => t.name === 'account');
      expect(account?.columns.find((c) => c.name === 'id')).toMatchObject({ isNullable: false });
      const withKysely = await store.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(withKysely.map((t) => t.name)).toEqual(expect.arrayContaining(['kysely_migration', 'kysely_migration_lock']));
    } finally {
      await store.close();
    }
  });

  // Kysely's own introspector called pg_get_serial_sequence and has_schema_privilege on every table of
  // the database by name, so a schema dropped during the scan failed the migration: about one start
  // in three failed this way here before the store's introspector kept to its own schema.
  it('a server starts while another application creates and drops tables on the same database', async () => {
    const url = process.env.DATABASE_URL!;
    const churn = await openStore({ kind: 'postgres', url, poolSize: 1 });
    const other = `plinth_churn_${randomBytes(4).toString('hex')}`;
    const tables = Array.from({ length: 40 }, (_, i) => `create table ${other}.t${i} (id serial primary key, label text);`);
    let churning = true;
    const churner = (async () => {
      while (churning) {
        await sql.raw(`create schema ${other}; ${tables.join(' ')}`).execute(churn.db);
        await sql.raw(`drop schema ${other} cascade`).execute(churn.db);
      }
    })();
    try {
      for (let start = 0; start < 15; start++) {
        const schema = `plinth_race_${randomBytes(5).toString('hex')}`;
        const store = await openStore({ kind: 'postgres', url, schema, poolSize: 3 });
        try {
          await expect(migrateToLatest(store)).resolves.toEqual(migrationNames());
        } finally {
          await sql.raw(`drop schema ${schema} cascade`).execute(store.db);
          await store.close();
        }
      }
    } finally {
      churning = false;
      await churner;
      await sql.raw(`drop schema if exists ${other} cascade`).execute(churn.db);
      await churn.close();
    }
  }, 120_000);
});
