import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { accountColumnOf, type TableDependency } from './cache-declaration.js';
import { rawWrites } from './raw-writes.js';
import { writesOf, type Write } from './write-nodes.js';

/** Which writes matter, by table (the `tables` of a cache declaration). */
export type WatchedWrites = Readonly<Record<string, TableDependency>>;

/** The accounts a write changed, or `all` when the statement does not say. */
export type ChangedAccounts = readonly number[] | 'all';

interface Watch {
  writes: WatchedWrites;
  onWrite: (accounts: ChangedAccounts) => void;
}

/**
 * Sees every statement this process runs through Kysely, query builder or raw `sql`, and calls
 * back after a watched write with the accounts it changed. Database triggers tell other processes
 * on commit; this tells this process at once, so a request that follows a write here never sees
 * what the write took away, and one account's writes leave the other accounts' entries alone.
 */
export class WriteWatchPlugin implements KyselyPlugin {
  private readonly watches: Watch[] = [];
  private readonly matched = new WeakMap<object, Array<{ watch: Watch; accounts: ChangedAccounts }>>();

  watch(writes: WatchedWrites, onWrite: (accounts: ChangedAccounts) => void) {
    this.watches.push({ writes, onWrite });
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.watches.length === 0) return args.node;
    const writes = args.node.kind === 'RawNode' ? rawWrites(args.node) : writesOf(args.node);
    if (writes.length === 0) return args.node;
    const hits = [];
    for (const watch of this.watches) {
      const accounts = changedAccounts(writes, watch.writes);
      if (accounts !== undefined) hits.push({ watch, accounts });
    }
    if (hits.length > 0) this.matched.set(args.queryId, hits);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const { watch, accounts } of this.matched.get(args.queryId) ?? []) watch.onWrite(accounts);
    return args.result;
  }
}

/** The accounts the watched ones among `writes` changed; undefined when none is watched. */
export function changedAccounts(writes: readonly Write[], watched: WatchedWrites): ChangedAccounts | undefined {
  let accounts: Set<number> | undefined;
  for (const write of writes) {
    const dependency = Object.hasOwn(watched, write.table) ? watched[write.table] : undefined;
    if (!dependency || !matters(write, dependency)) continue;
    const ids = write.accounts(accountColumnOf(dependency));
    if (ids === 'all') return 'all';
    accounts ??= new Set();
    for (const id of ids) accounts.add(id);
  }
  return accounts === undefined ? undefined : [...accounts];
}

function matters(write: Write, dependency: TableDependency): boolean {
  if (write.op === 'delete') return true;
  if (write.op === 'insert' && dependency.inserts) return true;
  if (write.updated === 'unknown') return true;
  if (dependency.updates === 'any') return write.op === 'update' || write.updated.length > 0;
  const updates = dependency.updates;
  return write.updated.some((column) => updates.includes(column));
}
