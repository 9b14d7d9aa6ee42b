import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** A column as the hand-written `Database` interface and the migrated database both describe it. */
export interface ColumnShape {
  /** Coarse: number, string, boolean, date, array, json (anything a jsonb column can hold), buffer. */
  type: string;
  nullable: boolean;
}
export type SchemaShape = Record<string, Record<string, ColumnShape>>;

/** The files that declare tables: the store's own, and each module's `tables.ts` merged into it. */
function tableFiles(): string[] {
  const modules = fileURLToPath(new URL('../modules/', import.meta.url));
  const owned = readdirSync(modules)
    .map((folder) => join(modules, folder, 'tables.ts'))
    .filter((file) => existsSync(file));
  return [fileURLToPath(new URL('../store/schema.ts', import.meta.url)), ...owned];
}

/** Each table of `Database` with the file that declares it. */
export function tableDeclarations(): Map<string, string> {
  const { checker, database } = databaseInterface();
  return new Map(
    checker
      .getTypeAtLocation(database)
      .getProperties()
      .map((table) => [table.name, table.declarations?.[0]?.getSourceFile().fileName ?? ''] as const),
  );
}

/**
 * Reads `Database` (store/schema.ts and the modules' tables.ts) the way Kysely does: a column's
 * type is what a select returns (`ColumnType<S, I, U>` and `Generated<S>` read as S). Used by
 * schema.test.ts to hold the hand-written types to the migrated database.
 */
export function declaredSchema(): SchemaShape {
  const { checker, database } = databaseInterface();
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

function databaseInterface(): { checker: ts.TypeChecker; database: ts.InterfaceDeclaration } {
  const [file, ...owned] = tableFiles();
  const program = ts.createProgram([file!, ...owned], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file!)!;
  const database = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Database');
  if (!database) throw new Error('store/schema.ts has no Database interface');
  return { checker, database };
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
