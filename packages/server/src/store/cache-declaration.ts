/**
 * What one per-process cache depends on, declared once by the module that owns the cache. The
 * same declaration drives both halves of keeping it fresh: this process's own writes (the write
 * watch, at once) and every other process's (a trigger on each table calls `plinth_notify_cache`
 * with the channel, and the NOTIFY arrives on commit). The triggers are made from these
 * declarations after the migrations (store/cache-triggers.ts), so a change here needs no migration.
 */
export interface CacheDeclaration {
  /** The NOTIFY channel; the payload is the account id. */
  channel: string;
  tables: Readonly<Record<string, TableDependency>>;
}

export interface TableDependency {
  /** Columns whose update can make a cached answer wrong, or `any` for every column. Deletes always can. */
  updates: readonly string[] | 'any';
  /** Whether a new row can make a cached answer wrong (a cache that remembers absence, or a row created with defaults). */
  inserts?: boolean;
  /** The column that holds the account id: `account_id` unless the table is `account` itself (`id`). */
  accountColumn?: string;
}

export const DEFAULT_ACCOUNT_COLUMN = 'account_id';

export function accountColumnOf(dependency: TableDependency): string {
  return dependency.accountColumn ?? DEFAULT_ACCOUNT_COLUMN;
}

/** The trigger function of migration 0016: `plinth_notify_cache(channel[, account column])`. */
export const NOTIFY_FUNCTION = 'plinth_notify_cache';
