import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** A column as the hand-written `Database` interface and the migrated database both describe it. */
export interface ColumnShape {
  /** Coarse: number, string, boolean, date, array, json (anything a jsonb column can hold), buffer. */
  type: string;
  nullable: boolean;
}
export type SchemaShape = Record<string, Record<string, ColumnShape>>;

/**
 * Reads `store/schema.ts` the way Kysely does: a column's type is what a select returns
 * (`ColumnType<S, I, U>` and `Generated<S>` read as S). Used by schema.test.ts to hold the
 * hand-written types to the migrated database.
 */
export function declaredSchema(): SchemaShape {
  const file = fileURLToPath(new URL('../store/schema.ts', import.meta.url));
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const database = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Database');
  if (!database) throw new Error('store/schema.ts has no Database interface');
  const shape: SchemaShape = {};
  for (const table of checker.getTypeAtLocation(database).getProperties()) {
    const columns: Record<string, ColumnShape> = {};
    for (const column of checker.getTypeOfSymbolAtLocation(table, database).getProperties()) {
      columns[column.name] = columnShape(checker, selected(checker, checker.getTypeOfSymbolAtLocation(column, database)));
    }
    shape[table.name] = columns;
  }
  return shape;
}

/** The members of what a select returns, `Timestamp | null` included. */
function selected(checker: ts.TypeChecker, type: ts.Type): ts.Type[] {
  return (type.isUnion() ? type.types : [type]).flatMap((member) => {
    const select = member.getProperty('__select__');
    if (!select) return [member];
    const inner = checker.getTypeOfSymbol(select);
    return inner.isUnion() ? inner.types : [inner];
  });
}

function columnShape(checker: ts.TypeChecker, members: ts.Type[]): ColumnShape {
  const nullable = members.some((t) => (t.flags & ts.TypeFlags.Null) !== 0);
  const kinds = new Set(
    members.filter((t) => (t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)) === 0).map((t) => coarse(checker, t)),
  );
  return { type: kinds.size === 1 ? [...kinds][0]! : [...kinds].sort().join('|'), nullable };
}

function coarse(checker: ts.TypeChecker, type: ts.Type): string {
  if (type.flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) return 'number';
  if (type.flags & ts.TypeFlags.StringLike) return 'string';
  if (type.flags & ts.TypeFlags.BooleanLike) return 'boolean';
  if (type.getSymbol()?.name === 'Date') return 'date';
  if (type.getSymbol()?.name === 'Buffer' || type.getSymbol()?.name === 'Uint8Array') return 'buffer';
  if (checker.isArrayType(type)) return 'array';
  return 'json';
}

/** The same coarse types for what information_schema.columns says. */
export function databaseType(dataType: string, udtName: string): string {
  switch (dataType) {
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'real':
    case 'double precision':
      return 'number';
    case 'numeric': // both drivers return numeric as a string (store.ts)
    case 'text':
    case 'character varying':
    case 'character':
    case 'uuid':
    case 'inet':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'timestamp with time zone':
    case 'timestamp without time zone':
    case 'date':
      return 'date';
    case 'json':
    case 'jsonb':
      return 'json';
    case 'ARRAY':
      return 'array';
    case 'bytea':
      return 'buffer';
    default:
      return udtName === 'citext' ? 'string' : `unknown:${dataType}`;
  }
}
