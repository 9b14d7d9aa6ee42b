import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** Which writes matter: a table and, for updates and upserts, the columns whose change counts (all for deletes). */
export type WatchedWrites = Record<string, readonly string[]>;

interface Watch {
  writes: WatchedWrites;
  onWrite: () => void;
}

/**
 * Sees every statement this process runs through Kysely and calls back after a watched update,
 * upsert or delete. Database triggers tell other processes on commit; this tells this process at
 * once, so a request that follows a write here never sees what the write took away.
 */
export class WriteWatchPlugin implements KyselyPlugin {
  private readonly watches: Watch[] = [];
  private readonly matched = new WeakMap<object, Watch[]>();

  watch(writes: WatchedWrites, onWrite: () => void) {
    this.watches.push({ writes, onWrite });
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.watches.length > 0) {
      const hits = this.watches.filter((w) => touches(args.node, w.writes));
      if (hits.length > 0) this.matched.set(args.queryId, hits);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const watch of this.matched.get(args.queryId) ?? []) watch.onWrite();
    return args.result;
  }
}

function touches(node: RootOperationNode, writes: WatchedWrites): boolean {
  if (node.kind === 'DeleteQueryNode') {
    return node.from.froms.some((from) => tableName(from) in writes);
  }
  // An upsert's update arm changes existing rows just as an update does.
  if (node.kind === 'InsertQueryNode') {
    const columns = node.into ? writes[tableName(node.into)] : undefined;
    return !!columns && (node.onConflict?.updates ?? []).some((update) => columns.includes(columnName(update.column)));
  }
  if (node.kind === 'UpdateQueryNode') {
    const table = node.table ? tableName(node.table) : undefined;
    const columns = table === undefined ? undefined : writes[table];
    if (!columns) return false;
    return (node.updates ?? []).some((update) => columns.includes(columnName(update.column)));
  }
  return false;
}

function tableName(node: OperationNode): string {
  const target = node.kind === 'AliasNode' ? (node as unknown as { node: OperationNode }).node : node;
  if (target.kind !== 'TableNode') return '';
  return (target as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
}

function columnName(node: OperationNode): string {
  return node.kind === 'ColumnNode' ? (node as unknown as { column: { name: string } }).column.name : '';
}
