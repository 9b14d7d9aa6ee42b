import { notSupported, syntaxError } from './errors.js';

/**
 * A node of PostgreSQL's parse tree as libpg-query gives it: `{Kind: fields}`. The translation reads
 * nodes through these helpers, checking each field it uses, instead of trusting the published types
 * (protobuf JSON leaves out fields holding their default: `ival: {}` is 0).
 */
export type Fields = { [key: string]: unknown };
export type PgNode = { [kind: string]: Fields };

export const isFields = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The kind of a node (`ColumnRef`, `FuncCall`, ...), or undefined for anything else. */
export function kindOf(node: unknown): string | undefined {
  if (!isFields(node)) return undefined;
  const keys = Object.keys(node);
  return keys.length === 1 && isFields(node[keys[0]!]) ? keys[0] : undefined;
}

/** The fields of a node of the given kind, or undefined when it is another kind. */
export function fieldsOf(node: unknown, kind: string): Fields | undefined {
  return kindOf(node) === kind ? ((node as PgNode)[kind] as Fields) : undefined;
}

export const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The strings of a name list (`[{String: {sval}}]`), as a function's or a type's name. */
export function namesOf(value: unknown): string[] {
  return listOf(value).map((n) => {
    const s = fieldsOf(n, 'String');
    return typeof s?.sval === 'string' ? s.sval : '*';
  });
}

/** A function's name without a `pg_catalog.` qualifier, lower-case as PostgreSQL folds it. */
export function functionNameOf(call: Fields): string {
  const names = namesOf(call.funcname);
  return (names[0] === 'pg_catalog' ? names.slice(1) : names).join('.');
}

interface PgQueryModule {
  loadModule(): Promise<void>;
  parseSync(sql: string): unknown;
}
interface Deparser {
  deparse(tree: unknown): Promise<string>;
}

/**
 * Loaded on the first SQL statement: the parser is PostgreSQL's own, compiled to WebAssembly, which
 * a process answering no SQL never needs.
 */
let parser: Promise<PgQueryModule> | undefined;
function pgQuery(): Promise<PgQueryModule> {
  return (parser ??= import('libpg-query').then(async (module) => {
    await module.loadModule();
    return module as unknown as PgQueryModule;
  }));
}

/** The statement kinds a client sends most, named as PostgreSQL's command tags name them. */
const STATEMENTS: Record<string, string> = {
  InsertStmt: 'INSERT',
  UpdateStmt: 'UPDATE',
  DeleteStmt: 'DELETE',
  MergeStmt: 'MERGE',
  CreateStmt: 'CREATE TABLE',
  CreateTableAsStmt: 'CREATE TABLE AS',
  DropStmt: 'DROP',
  TruncateStmt: 'TRUNCATE',
  CopyStmt: 'COPY',
  VariableSetStmt: 'SET',
  VariableShowStmt: 'SHOW',
  TransactionStmt: 'Transaction',
  ExplainStmt: 'EXPLAIN',
  ViewStmt: 'CREATE VIEW',
  AlterTableStmt: 'ALTER TABLE',
};

/** The one SELECT statement of `sql`, as `{SelectStmt: ...}`. */
export async function parseSelect(sql: string): Promise<PgNode> {
  const module = await pgQuery();
  let tree: unknown;
  try {
    tree = module.parseSync(sql);
  } catch (error) {
    const details = (error as { sqlDetails?: { cursorPosition?: number } }).sqlDetails;
    const at = typeof details?.cursorPosition === 'number' ? ` (at character ${details.cursorPosition + 1})` : '';
    throw syntaxError(`The SQL could not be parsed: ${error instanceof Error ? error.message : String(error)}${at}`);
  }
  const statements = listOf(isFields(tree) ? tree.stmts : undefined).map((s) => (isFields(s) ? s.stmt : undefined));
  if (statements.length === 0) throw syntaxError('The SQL holds no statement');
  if (statements.length !== 1) throw notSupported(`Exactly one statement per request is supported, got ${statements.length}`);
  const statement = statements[0];
  const kind = kindOf(statement) ?? 'unknown';
  if (kind !== 'SelectStmt') {
    const name = STATEMENTS[kind] ?? kind.replace(/Stmt$/, '').toUpperCase();
    throw notSupported(`${name} statements are not supported: the SQL API answers SELECT only`);
  }
  return statement as PgNode;
}

let deparser: Promise<Deparser> | undefined;
/** SQL text of a (rewritten) statement, for the post-processing engine. */
export async function deparse(statement: PgNode): Promise<string> {
  const module = await (deparser ??= import('pgsql-deparser') as Promise<Deparser>);
  return module.deparse(statement);
}
