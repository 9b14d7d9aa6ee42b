import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { MetaCube } from '@plinth/semantic';
import { createPGlite } from '../../store/pglite-create.js';
import { catalogDdl, MEASURE_FUNCTION, quoteIdent } from './catalog-ddl.js';
import { CATALOG_REVOKES, catalogPlanProblem } from './catalog-guard.js';
import { SqlFailure } from './errors.js';

/** Catalogs kept at once: each is a PostgreSQL (PGlite) of some tens of MB. */
const MAX_CATALOGS = 8;
/** Statement texts whose route a catalog keeps (the oldest goes first). */
const ROUTES_KEPT = 2_000;
/** A catalog unused this long is closed; the next connection to its model makes it again. */
const IDLE_MS = 10 * 60_000;

interface Entry {
  catalog: Promise<ModelCatalog>;
  usedAt: number;
}

/**
 * One PostgreSQL catalog per served model and visibility (a build's model as one caller's policies
 * show it): the same build seen by two callers with different policies is two catalogs, so no
 * caller's catalog names a member another's policies hide. Made from an empty data directory
 * initialised once per process (and kept in the temporary directory between processes): making a
 * PostgreSQL from nothing takes many seconds, loading one a few.
 */
export class SqlCatalogs {
  private readonly entries = new Map<string, Entry>();
  private template: Promise<Blob> | undefined;
  private readonly sweeper: NodeJS.Timeout;
  /** Each `cubes` answer's digest: the data API hands the same answer again while the model and caller stay. */
  private readonly digests = new WeakMap<readonly MetaCube[], string>();

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  /** The catalog of `cubes` (what one caller sees of build `buildId`), as database `database`, the name the client connected to. */
  get(buildId: number, cubes: readonly MetaCube[], database: string): Promise<ModelCatalog> {
    let digest = this.digests.get(cubes);
    if (digest === undefined) {
      digest = createHash('sha256').update(JSON.stringify(cubes)).digest('base64url');
      this.digests.set(cubes, digest);
    }
    const key = `${buildId}:${digest}:${database}`;
    const found = this.entries.get(key);
    if (found) {
      found.usedAt = Date.now();
      return found.catalog;
    }
    if (this.entries.size >= MAX_CATALOGS) this.evictOldest();
    const catalog = this.make(cubes, database);
    const entry: Entry = { catalog, usedAt: Date.now() };
    this.entries.set(key, entry);
    catalog.catch(() => this.entries.get(key) === entry && this.entries.delete(key));
    return catalog;
  }

  private async make(cubes: readonly MetaCube[], database: string): Promise<ModelCatalog> {
    let db: PGlite;
    try {
      db = await createPGlite({ loadDataDir: await this.templateBlob() });
    } catch {
      // A template another PGlite version left in the temporary directory: made again from nothing.
      this.template = loadTemplate(true);
      db = await createPGlite({ loadDataDir: await this.templateBlob() });
    }
    try {
      // Every SQL user reads the tables (clients ask has_table_privilege(current_user, …)).
      await db.exec(
        `${MEASURE_FUNCTION}\n${catalogDdl(cubes)}\ngrant select on all tables in schema public to public;\n${CATALOG_REVOKES}`,
      );
      // The database is the one the client named: current_database(), current_catalog,
      // pg_database and information_schema all read this row. The open database cannot be
      // renamed by ALTER DATABASE, but its row can be, by its superuser.
      await db.query('update pg_catalog.pg_database set datname = $1 where datname = current_database()', [database]);
      // Read-only from here on: a catalog is shared by every session that sees the same model.
      await db.exec('set default_transaction_read_only = on;');
    } catch (error) {
      await db.close();
      throw error;
    }
    return new ModelCatalog(db);
  }

  private templateBlob(): Promise<Blob> {
    this.template ??= loadTemplate();
    this.template.catch(() => (this.template = undefined));
    return this.template;
  }

  private evictOldest(): void {
    const oldest = [...this.entries.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt)[0];
    if (!oldest) return;
    this.entries.delete(oldest[0]);
    void oldest[1].catalog.then((c) => c.close()).catch(() => undefined);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      if (now - entry.usedAt < IDLE_MS) continue;
      this.entries.delete(key);
      void entry.catalog.then((c) => c.close()).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.catalog.then((c) => c.close()).catch(() => undefined)));
  }
}

/** The initialised empty data directory, from the temporary directory when a process made it already. */
async function loadTemplate(again = false): Promise<Blob> {
  const file = join(tmpdir(), `plinth-sql-catalog-${process.getuid?.() ?? 'user'}-v1.tar.gz`);
  if (!again) {
    try {
      return new Blob([await readFile(file)]);
    } catch {
      // Not made yet on this machine (or unreadable): made below.
    }
  }
  const fresh = await createPGlite();
  try {
    const blob = await fresh.dumpDataDir('gzip');
    const part = `${file}.${process.pid}`;
    await writeFile(part, Buffer.from(await blob.arrayBuffer()));
    await rename(part, file).catch(() => undefined);
    return blob;
  } finally {
    await fresh.close();
  }
}

/**
 * One model's catalog: extended-protocol messages are run on it as a client would send them, so
 * its answers (text or binary, as the client asked) are PostgreSQL's own bytes. One session at a
 * time: the messages of one exchange are never interleaved with another's.
 */
export class ModelCatalog {
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * readsModel's answers by statement text: the catalog is read-only, so a text's answer never
   * changes, and BI tools and dashboards send the same texts again and again.
   */
  private readonly routes = new Map<string, boolean | SqlFailure | undefined>();
  /** The SQL users made roles here so far. */
  private readonly roles = new Set<string>();

  constructor(private readonly db: PGlite) {}

  /** The catalog as one SQL user sees it: current_user, session_user and user answer its name. */
  as(user: string): CatalogSession {
    return { exchange: (messages) => this.exchange(messages, user), readsModel: (sql) => this.readsModel(sql) };
  }

  /**
   * Makes `user` the session's user before each exchange, since sessions of several users share
   * the catalog; set every time, so no statement of one caller (a set_config of
   * session_authorization) carries over to another's. A role is made the first time a user comes.
   */
  private async actAs(user: string): Promise<void> {
    const role = quoteIdent(user);
    if (!this.roles.has(user)) {
      await this.db.exec(`set session authorization postgres; begin read write; create role ${role} nologin; commit;`);
      this.roles.add(user);
    }
    await this.db.exec(`set session authorization ${role}`);
  }

  /** Runs `messages` (ending in Sync) as `user` and answers the backend messages, split. */
  exchange(messages: Buffer, user: string): Promise<BackendMessage[]> {
    const run = this.queue.then(async () => {
      await this.actAs(user);
      return splitMessages(Buffer.from(await this.db.execProtocolRaw(messages, { syncToFs: false })));
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Whether `sql` reads a cube or view (a relation of schema public); undefined when PostgreSQL
   * cannot plan it. A statement for the catalog that it will not run (catalog-guard) is refused.
   */
  async readsModel(sql: string): Promise<boolean | undefined> {
    const known = this.routes.get(sql);
    if (known instanceof SqlFailure) throw known;
    if (known !== undefined || this.routes.has(sql)) return known;
    const run = this.queue.then(async () => {
      // Planned as the catalog's owner: where a statement goes does not depend on who sends it,
      // and what it may not do is then refused by running it as the user, as PostgreSQL refuses it.
      await this.db.exec('set session authorization postgres');
      try {
        const [result] = await this.db.exec(`explain (generic_plan, verbose, format json) ${sql}`);
        const row = result?.rows[0] ?? {};
        if (/"Schema":"public"/.test(JSON.stringify(row))) return true;
        const problem = catalogPlanProblem(Object.values(row)[0]);
        return problem ? new SqlFailure('54000', problem) : false;
      } catch {
        return undefined;
      }
    });
    this.queue = run.catch(() => undefined);
    const reads = await run;
    if (this.routes.size >= ROUTES_KEPT) this.routes.delete(this.routes.keys().next().value!);
    this.routes.set(sql, reads);
    if (reads instanceof SqlFailure) throw reads;
    return reads;
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

/** What a session's statements use of its model's catalog, as its SQL user. */
export interface CatalogSession {
  exchange(messages: Buffer): Promise<BackendMessage[]>;
  readsModel(sql: string): Promise<boolean | undefined>;
}

export interface BackendMessage {
  type: string;
  /** The whole message, type byte and length included, to forward as it is. */
  bytes: Buffer;
}

export function splitMessages(bytes: Buffer): BackendMessage[] {
  const messages: BackendMessage[] = [];
  let at = 0;
  while (at + 5 <= bytes.length) {
    const length = bytes.readInt32BE(at + 1);
    messages.push({ type: String.fromCharCode(bytes[at]!), bytes: bytes.subarray(at, at + 1 + length) });
    at += 1 + length;
  }
  return messages;
}
