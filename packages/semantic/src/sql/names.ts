import { fieldsOf, functionNameOf, kindOf, listOf, namesOf, type Fields } from './pg-ast.js';

const VALUE_FUNCTIONS: Record<string, string> = {
  SVFOP_CURRENT_DATE: 'current_date',
  SVFOP_CURRENT_TIME: 'current_time',
  SVFOP_CURRENT_TIME_N: 'current_time',
  SVFOP_CURRENT_TIMESTAMP: 'current_timestamp',
  SVFOP_CURRENT_TIMESTAMP_N: 'current_timestamp',
  SVFOP_LOCALTIME: 'localtime',
  SVFOP_LOCALTIME_N: 'localtime',
  SVFOP_LOCALTIMESTAMP: 'localtimestamp',
  SVFOP_LOCALTIMESTAMP_N: 'localtimestamp',
  SVFOP_CURRENT_USER: 'current_user',
  SVFOP_SESSION_USER: 'session_user',
  SVFOP_USER: 'user',
  SVFOP_CURRENT_CATALOG: 'current_catalog',
  SVFOP_CURRENT_SCHEMA: 'current_schema',
};

/**
 * The name PostgreSQL gives a select-list expression without an alias (its FigureColname): a
 * column's name, a function's name, `case`, `coalesce`, ... and `?column?` for anything else. Clients
 * show these as headers and outer queries refer to them, so post-processed answers use them too.
 */
export function figureName(node: unknown): string {
  const kind = kindOf(node);
  const f = (kind ? fieldsOf(node, kind) : undefined) ?? {};
  switch (kind) {
    case 'ColumnRef': {
      const names = namesOf(f.fields);
      const last = names[names.length - 1];
      return last === undefined || last === '*' ? '?column?' : last;
    }
    case 'FuncCall': {
      const name = functionNameOf(f);
      return name.slice(name.lastIndexOf('.') + 1);
    }
    case 'A_Expr':
      return f.kind === 'AEXPR_NULLIF' ? 'nullif' : '?column?';
    case 'TypeCast': {
      const inner = figureName(f.arg);
      if (inner !== '?column?') return inner;
      const names = namesOf((f.typeName as Fields | undefined)?.names);
      return names[names.length - 1] ?? '?column?';
    }
    case 'CollateClause':
      return figureName(f.arg);
    case 'SubLink': {
      if (f.subLinkType === 'EXISTS_SUBLINK') return 'exists';
      if (f.subLinkType === 'ARRAY_SUBLINK') return 'array';
      if (f.subLinkType !== 'EXPR_SUBLINK') return '?column?';
      const first = fieldsOf(listOf(fieldsOf(f.subselect, 'SelectStmt')?.targetList)[0], 'ResTarget');
      return typeof first?.name === 'string' ? first.name : first ? figureName(first.val) : '?column?';
    }
    case 'CaseExpr':
      return 'case';
    case 'A_ArrayExpr':
      return 'array';
    case 'RowExpr':
      return 'row';
    case 'CoalesceExpr':
      return 'coalesce';
    case 'MinMaxExpr':
      return f.op === 'IS_LEAST' ? 'least' : 'greatest';
    case 'GroupingFunc':
      return 'grouping';
    case 'SQLValueFunction':
      return VALUE_FUNCTIONS[String(f.op)] ?? '?column?';
    default:
      return '?column?';
  }
}

/** The output names of a SELECT (the leftmost one of a UNION), or undefined when it selects `*`. */
export function selectNames(select: Fields): string[] | undefined {
  let leftmost = select;
  while (leftmost.op !== undefined && leftmost.op !== 'SETOP_NONE' && leftmost.larg) leftmost = leftmost.larg as Fields;
  const targets = listOf(leftmost.targetList).map((t) => fieldsOf(t, 'ResTarget')!);
  if (targets.some((t) => namesOf(fieldsOf(t.val, 'ColumnRef')?.fields).includes('*'))) return undefined;
  return targets.map((t) => (typeof t.name === 'string' ? t.name : figureName(t.val)));
}
