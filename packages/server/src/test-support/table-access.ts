import { readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import ts from 'typescript';

/** A table a source file names in a query: in a Kysely call or in the text of raw SQL. */
export interface TableAccess {
  table: string;
  /** Path from the scanned root, and line. */
  at: string;
}

/** Kysely calls whose first argument names a table (an alias after " as " is dropped); `table` is `sql.table`. */
const TABLE_CALLS = new Set([
  'selectFrom',
  'insertInto',
  'replaceInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'innerJoinLateral',
  'leftJoinLateral',
  'using',
  'table',
]);

/** In raw SQL, a table follows one of these words (`delete from`, `insert into`, `join`, …). */
const SQL_TABLE = /\b(?:from|join|into|update|table|using)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)/gi;

/**
 * The files the server ships, as its tsconfig says: tests, fixtures and other test support are
 * excluded there (they build the rows a test needs, in any table), and so they are here.
 */
export function shippedSources(tsconfigPath: string): string[] {
  const { config } = ts.readConfigFile(tsconfigPath, (path) => ts.sys.readFile(path));
  return ts.parseJsonConfigFileContent(config, ts.sys, dirname(tsconfigPath)).fileNames;
}

/**
 * Every table a file names in a query. A table given as a variable counts by the string literals
 * its declaration in the same file holds (`for (const table of ['api_key', …])`, a parameter typed
 * `'a' | 'b'`), so the check sees through the usual indirections; one passed from another file
 * is not seen.
 */
export function tablesNamedIn(file: string, root: string): TableAccess[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: TableAccess[] = [];
  const add = (table: string, node: ts.Node) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ table, at: `${relative(root, file)}:${line}` });
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && TABLE_CALLS.has(node.expression.name.text)) {
      const [first] = node.arguments;
      if (first) for (const text of literalsOf(first, source)) add(text.split(/\s+as\s+/i)[0]!.trim(), node);
    }
    // The generic repository (store/account-scoped-repo.ts) is given its table: `new AccountScopedRepo(db, 'x', …)`, or `super(db, 'x', …)` in a subclass.
    const given =
      (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'AccountScopedRepo') ||
      (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword);
    if (given && node.arguments?.[1]) for (const text of literalsOf(node.arguments[1], source)) add(text, node);
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'raw') {
      const [first] = node.arguments;
      if (first) for (const text of literalsOf(first, source)) scanSql(text, node);
    }
    if (ts.isTaggedTemplateExpression(node)) {
      const template = node.template;
      const parts = ts.isNoSubstitutionTemplateLiteral(template)
        ? [template.text]
        : [template.head.text, ...template.templateSpans.map((span) => span.literal.text)];
      scanSql(parts.join(' '), node);
    }
    ts.forEachChild(node, visit);
  };
  const scanSql = (text: string, node: ts.Node) => {
    for (const [, table] of text.matchAll(SQL_TABLE)) add(table!.toLowerCase(), node);
  };
  visit(source);
  return found;
}

/** The string literals an expression can evaluate to, looking through `as`, `?:`, arrays and same-file declarations. */
function literalsOf(node: ts.Node, source: ts.SourceFile, seen = new Set<ts.Node>()): string[] {
  if (seen.has(node)) return [];
  seen.add(node);
  if (ts.isStringLiteralLike(node)) return [node.text];
  if (ts.isIdentifier(node)) return declarationsOf(node, source).flatMap((declaration) => literalsOf(declaration, source, seen));
  if (ts.isCallExpression(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return [];
  if (ts.isPropertyAccessExpression(node)) return [];
  const literals: string[] = [];
  ts.forEachChild(node, (child) => {
    literals.push(...literalsOf(child, source, seen));
  });
  return literals;
}

/** Where the identifier's name is declared in this file: the initializer, iterated array or type that gives its value. */
function declarationsOf(identifier: ts.Identifier, source: ts.SourceFile): ts.Node[] {
  const found: ts.Node[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isVariableDeclaration(node) || ts.isParameter(node)) && ts.isIdentifier(node.name) && node.name.text === identifier.text) {
      if (node.type) found.push(node.type);
      if (node.initializer) found.push(node.initializer);
      const loop = node.parent?.parent;
      if (loop && ts.isForOfStatement(loop)) found.push(loop.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
