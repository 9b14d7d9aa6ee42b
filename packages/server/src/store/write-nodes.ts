import type {
  ColumnUpdateNode,
  DeleteQueryNode,
  InsertQueryNode,
  OperationNode,
  RootOperationNode,
  UpdateQueryNode,
  WithNode,
} from 'kysely';

/** One table a statement writes, as far as the statement itself tells. */
export interface Write {
  table: string;
  op: 'insert' | 'update' | 'delete';
  /** Columns an update (or an upsert's update arm) sets; `unknown` when the statement does not say. */
  updated: readonly string[] | 'unknown';
  /** The accounts whose rows it writes, given the table's account column; `all` when it cannot tell. */
  accounts(accountColumn: string): readonly number[] | 'all';
}

/**
 * The writes of a query-builder statement, including those in its `with` clauses. An update or
 * delete belongs to the accounts its where clause pins (`account_id = 1`, `account_id in (1, 2)`,
 * anded with anything); an insert to the accounts of its values; an upsert whose conflict target
 * does not include the account column may update a row of any account.
 */
export function writesOf(node: RootOperationNode): Write[] {
  const writes: Write[] = [];
  collect(node, writes);
  return writes;
}

function collect(node: OperationNode, writes: Write[]): void {
  const withNode = (node as { with?: WithNode }).with;
  for (const cte of withNode?.expressions ?? []) collect(cte.expression, writes);
  if (node.kind === 'InsertQueryNode') insertWrite(node as InsertQueryNode, writes);
  else if (node.kind === 'UpdateQueryNode') updateWrite(node as UpdateQueryNode, writes);
  else if (node.kind === 'DeleteQueryNode') deleteWrite(node as DeleteQueryNode, writes);
}

function insertWrite(node: InsertQueryNode, writes: Write[]): void {
  const table = node.into ? tableName(node.into) : '';
  if (!table) return;
  const updated = (node.onConflict?.updates ?? []).map(updatedColumn);
  const conflictColumns = (node.onConflict?.columns ?? []).map((c) => c.column.name);
  const columns = (node.columns ?? []).map((c) => c.column.name);
  writes.push({
    table,
    op: 'insert',
    updated,
    accounts(accountColumn) {
      // The update arm changes the row that conflicted, whose account is the inserted one only if the account is part of the conflict.
      if (updated.length > 0 && !conflictColumns.includes(accountColumn)) return 'all';
      return insertedAccounts(node.values, columns.indexOf(accountColumn));
    },
  });
}

function updateWrite(node: UpdateQueryNode, writes: Write[]): void {
  const table = node.table ? tableName(node.table) : '';
  if (!table) return;
  const updated = (node.updates ?? []).map(updatedColumn);
  writes.push({
    table,
    op: 'update',
    updated,
    // Moving a row to another account changes both; the where clause names only the old one.
    accounts: (accountColumn) => (updated.includes(accountColumn) ? 'all' : pinnedAccounts(node.where?.where, accountColumn, table)),
  });
}

function deleteWrite(node: DeleteQueryNode, writes: Write[]): void {
  for (const from of node.from.froms) {
    const table = tableName(from);
    if (table) writes.push({ table, op: 'delete', updated: [], accounts: (column) => pinnedAccounts(node.where?.where, column, table) });
  }
}

function insertedAccounts(values: OperationNode | undefined, index: number): readonly number[] | 'all' {
  if (index < 0 || values?.kind !== 'ValuesNode') return 'all';
  const ids = new Set<number>();
  for (const row of (values as unknown as { values: OperationNode[] }).values) {
    const cells = (row as unknown as { values: unknown[] }).values;
    const cell = row.kind === 'PrimitiveValueListNode' ? cells[index] : valueOf(cells[index] as OperationNode | undefined);
    const id = accountId(cell);
    if (id === undefined) return 'all';
    ids.add(id);
  }
  return [...ids];
}

/** The accounts a where clause restricts rows to, through any conjunct; `all` when none does. */
function pinnedAccounts(where: OperationNode | undefined, column: string, table: string): readonly number[] | 'all' {
  if (!where) return 'all';
  if (where.kind === 'ParensNode') return pinnedAccounts((where as unknown as { node: OperationNode }).node, column, table);
  if (where.kind === 'AndNode') {
    const { left, right } = where as unknown as { left: OperationNode; right: OperationNode };
    const pinned = pinnedAccounts(left, column, table);
    return pinned !== 'all' ? pinned : pinnedAccounts(right, column, table);
  }
  if (where.kind !== 'BinaryOperationNode') return 'all';
  const { leftOperand, operator, rightOperand } = where as unknown as {
    leftOperand: OperationNode;
    operator: { operator: string };
    rightOperand: OperationNode;
  };
  if (referencedColumn(leftOperand, table) !== column) return 'all';
  if (operator.operator === '=') {
    const id = accountId(valueOf(rightOperand));
    return id === undefined ? 'all' : [id];
  }
  if (operator.operator === 'in' && rightOperand.kind === 'PrimitiveValueListNode') {
    const ids = (rightOperand as unknown as { values: unknown[] }).values.map(accountId);
    return ids.every((id) => id !== undefined) ? (ids as number[]) : 'all';
  }
  return 'all';
}

/** The column a reference names, if it is a column of `table` (unqualified, or qualified by the table's own name). */
function referencedColumn(node: OperationNode, table: string): string | undefined {
  if (node.kind === 'ColumnNode') return (node as unknown as { column: { name: string } }).column.name;
  if (node.kind !== 'ReferenceNode') return undefined;
  const ref = node as unknown as { column: OperationNode; table?: OperationNode };
  if (ref.table && tableName(ref.table) !== table) return undefined;
  return referencedColumn(ref.column, table);
}

function valueOf(node: OperationNode | undefined): unknown {
  return node?.kind === 'ValueNode' ? (node as unknown as { value: unknown }).value : undefined;
}

function accountId(value: unknown): number | undefined {
  const id = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof id === 'number' && Number.isInteger(id) ? id : undefined;
}

function updatedColumn(update: ColumnUpdateNode): string {
  const column = update.column as OperationNode;
  return column.kind === 'ColumnNode' ? (column as unknown as { column: { name: string } }).column.name : '';
}

export function tableName(node: OperationNode): string {
  const target = node.kind === 'AliasNode' ? (node as unknown as { node: OperationNode }).node : node;
  if (target.kind !== 'TableNode') return '';
  return (target as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
}
