import type { OperationNode, RawNode } from 'kysely';
import type { Write } from './write-nodes.js';

const WRITE = /\b(insert\s+into|update|delete\s+from)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)"?/gi;

/**
 * The writes of a raw `sql` statement, read from its text (identifiers passed as `sql.table` and
 * `sql.ref` are spelled out, values become `$n`). Only the tables are told for sure. An update or
 * delete belongs to one account when every `account_id = $n` comparison in the statement names
 * the same value; any other raw write, inserts and upserts included, is treated as touching every
 * account and every column, since its text does not say more with certainty.
 */
export function rawWrites(node: RawNode): Write[] {
  const values: unknown[] = [];
  const text = sketch(node, values);
  const writes: Write[] = [];
  for (const [, verb, table] of text.matchAll(WRITE)) {
    const op = verb!.toLowerCase().startsWith('insert') ? 'insert' : verb!.toLowerCase() === 'update' ? 'update' : 'delete';
    const updated = op === 'delete' ? [] : op === 'update' || /\bon\s+conflict\b[^;]*\bdo\s+update\b/i.test(text) ? 'unknown' : [];
    writes.push({
      table: table!.toLowerCase(),
      op,
      updated,
      accounts: (accountColumn) => (op === 'insert' ? 'all' : pinnedAccount(text, values, accountColumn)),
    });
  }
  return writes;
}

function pinnedAccount(text: string, values: unknown[], column: string): readonly number[] | 'all' {
  if (column !== 'account_id') return 'all';
  const ids = new Set<unknown>();
  for (const [, n] of text.matchAll(/\baccount_id\s*=\s*\$(\d+)/gi)) ids.add(values[Number(n) - 1]);
  if (ids.size !== 1) return 'all';
  const [id] = ids;
  return typeof id === 'number' && Number.isInteger(id) ? [id] : 'all';
}

function sketch(node: OperationNode, values: unknown[]): string {
  switch (node.kind) {
    case 'RawNode': {
      const { sqlFragments, parameters } = node as RawNode;
      let text = sqlFragments[0] ?? '';
      parameters.forEach((parameter, i) => (text += sketch(parameter, values) + (sqlFragments[i + 1] ?? '')));
      return text;
    }
    case 'ValueNode':
      values.push((node as unknown as { value: unknown }).value);
      return `$${values.length}`;
    case 'TableNode':
      return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
    case 'IdentifierNode':
      return (node as unknown as { name: string }).name;
    case 'ColumnNode':
      return sketch((node as unknown as { column: OperationNode }).column, values);
    case 'ReferenceNode': {
      const ref = node as unknown as { column: OperationNode; table?: OperationNode };
      return (ref.table ? `${sketch(ref.table, values)}.` : '') + sketch(ref.column, values);
    }
    default:
      return ' ? ';
  }
}
