import { parse, type Filter } from 'scim2-parse-filter';
import { sql, type RawBuilder } from 'kysely';
import { findAttr, resolveAttribute, type AttributeDef, type ResourceTypeDef } from './attributes.js';
import { invalidFilter } from './errors.js';

type Sql = RawBuilder<unknown>;

/** Where a resource type's attributes live in SQL; see query-repo.ts for the two targets. */
export interface FilterTarget {
  type: ResourceTypeDef;
  /** The SQL expression of a singular attribute, by its lowercase canonical path (`name.givenname`). */
  column(path: string): Sql | undefined;
  /** Multi-valued attributes: SQL of an item's sub-attribute, and the EXISTS that ranges over items. */
  multi(name: string): MultiTarget | undefined;
}

export interface MultiTarget {
  item(sub: string): Sql | undefined;
  exists(condition: Sql): Sql;
}

export const MAX_FILTER_LENGTH = 4096;

/** Parses a filter (RFC 7644 §3.4.2.2) with scim2-parse-filter; any failure is `invalidFilter`. */
export function parseFilter(text: string): Filter {
  if (text.length > MAX_FILTER_LENGTH) throw invalidFilter(`The filter is longer than ${MAX_FILTER_LENGTH} characters`);
  try {
    return parse(text);
  } catch (error) {
    throw invalidFilter(`The filter "${text}" is not valid: ${(error as Error).message}`);
  }
}

/**
 * Translates a parsed filter into a SQL condition. Each comparison follows the attribute's schema:
 * strings compare case-insensitively unless `caseExact`, booleans take only eq/ne, dateTimes
 * compare as instants. Unknown attributes and operators that make no sense for a type are
 * `invalidFilter` rather than silently false, so a client's typo is not mistaken for "no match".
 */
export function filterToSql(filter: Filter, target: FilterTarget, options: FilterOptions = {}): Sql {
  return translate(filter, { ...target, ...options }, undefined);
}

export interface FilterOptions {
  /**
   * A search across resource types (`POST /.search`) applies one filter to each: an attribute
   * that a type does not have is absent there, so it compares false instead of being an error.
   */
  absentIfUnknown?: boolean;
}

type Target = FilterTarget & FilterOptions;

function translate(filter: Filter, target: Target, scope: MultiScope | undefined): Sql {
  switch (filter.op) {
    case 'and':
    case 'or': {
      const parts = filter.filters.map((f) => sql`(${translate(f, target, scope)})`);
      return sql.join(parts, filter.op === 'and' ? sql` and ` : sql` or `);
    }
    case 'not':
      // SQL's NULL would make `not` drop rows whose attribute is absent; SCIM says they match.
      return sql`not coalesce((${translate(filter.filter, target, scope)}), false)`;
    case '[]': {
      if (scope) throw invalidFilter('A value filter cannot be nested inside another');
      const name = stripSchema(filter.attrPath, target.type);
      const def = findAttr(target.type.attributes, name);
      const multi = def?.multiValued ? target.multi(def.name.toLowerCase()) : undefined;
      if (!def && target.absentIfUnknown) return sql`false`;
      if (!def || !multi) throw invalidFilter(`"${filter.attrPath}" is not a multi-valued attribute of ${target.type.name}`);
      return multi.exists(translate(filter.valFilter, target, { def, multi }));
    }
    default:
      return comparison(filter, target, scope);
  }
}

interface MultiScope {
  def: AttributeDef;
  multi: MultiTarget;
}

function comparison(filter: Extract<Filter, { attrPath: string }> & { op: string }, target: Target, scope: MultiScope | undefined): Sql {
  const compValue = 'compValue' in filter ? filter.compValue : undefined;
  if (scope) {
    const sub = scope.def.subAttributes && findAttr(scope.def.subAttributes, filter.attrPath);
    const column = sub && scope.multi.item(sub.name.toLowerCase());
    if (!sub || !column) throw invalidFilter(`"${filter.attrPath}" is not a sub-attribute of ${scope.def.name}`);
    return compare(filter.op, column, sub, compValue, `${scope.def.name}.${sub.name}`);
  }
  const resolved = resolveAttribute(target.type, filter.attrPath);
  if (!resolved && target.absentIfUnknown) return sql`false`;
  if (!resolved) throw invalidFilter(`"${filter.attrPath}" is not an attribute of ${target.type.name}`);
  const { top, sub } = resolved;
  if (top.multiValued) {
    // `emails co "x"` means the item's value (RFC 7644 §3.4.2.2); `emails.type eq "work"` any item's type.
    const multi = target.multi(top.name.toLowerCase());
    const itemDef = sub ?? (top.subAttributes && findAttr(top.subAttributes, 'value'));
    const column = itemDef && multi?.item(itemDef.name.toLowerCase());
    if (!multi || !itemDef || !column) throw invalidFilter(`"${filter.attrPath}" cannot be filtered on`);
    if (filter.op === 'pr' && !sub) return multi.exists(sql`true`);
    return multi.exists(compare(filter.op, column, itemDef, compValue, filter.attrPath));
  }
  if (top.type === 'complex' && !sub) {
    if (filter.op !== 'pr') throw invalidFilter(`"${top.name}" is complex: compare one of its sub-attributes`);
    const parts = (top.subAttributes ?? []).map((s) => target.column(`${top.name}.${s.name}`.toLowerCase())).filter((c) => c !== undefined);
    return sql.join(
      parts.map((c) => sql`${c} is not null`),
      sql` or `,
    );
  }
  const path = (sub ? `${top.name}.${sub.name}` : top.name).toLowerCase();
  const column = target.column(path);
  if (!column) throw invalidFilter(`"${filter.attrPath}" cannot be filtered on`);
  return compare(filter.op, column, sub ?? top, compValue, filter.attrPath);
}

function compare(op: string, column: Sql, def: AttributeDef, value: unknown, label: string): Sql {
  if (op === 'pr') return def.type === 'string' ? sql`(${column} is not null and ${column} <> '')` : sql`${column} is not null`;
  if (value === null) {
    if (op === 'eq') return sql`${column} is null`;
    if (op === 'ne') return sql`${column} is not null`;
    throw invalidFilter(`"${label}" ${op} null is not a valid comparison`);
  }
  switch (def.type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw invalidFilter(`"${label}" is a boolean: compare it with true or false`);
      if (op === 'eq') return sql`${column} = ${value}`;
      if (op === 'ne') return sql`${column} is distinct from ${value}`;
      throw invalidFilter(`Operator "${op}" cannot be used with the boolean "${label}"`);
    case 'dateTime': {
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) {
        throw invalidFilter(`"${label}" is a dateTime: compare it with an ISO 8601 string`);
      }
      const instant = sql`${new Date(value).toISOString()}::timestamptz`;
      if (op in ORDERING) return sql`${column} ${sql.raw(ORDERING[op]!)} ${instant}`;
      if (op === 'eq') return sql`${column} = ${instant}`;
      if (op === 'ne') return sql`${column} is distinct from ${instant}`;
      throw invalidFilter(`Operator "${op}" cannot be used with the dateTime "${label}"`);
    }
    default: {
      if (typeof value !== 'string') throw invalidFilter(`"${label}" is a string: compare it with a quoted value`);
      const lhs = def.caseExact ? column : sql`lower(${column})`;
      const rhs = def.caseExact ? value : value.toLowerCase();
      switch (op) {
        case 'eq':
          return sql`${lhs} = ${rhs}`;
        case 'ne':
          return sql`${lhs} is distinct from ${rhs}`;
        case 'co':
          return sql`${lhs} like ${`%${escapeLike(rhs)}%`}`;
        case 'sw':
          return sql`${lhs} like ${`${escapeLike(rhs)}%`}`;
        case 'ew':
          return sql`${lhs} like ${`%${escapeLike(rhs)}`}`;
        default:
          if (op in ORDERING) return sql`${lhs} ${sql.raw(ORDERING[op]!)} ${rhs} collate "C"`;
          throw invalidFilter(`Unknown operator "${op}"`);
      }
    }
  }
}

const ORDERING: Record<string, string> = { gt: '>', ge: '>=', lt: '<', le: '<=' };

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function stripSchema(path: string, type: ResourceTypeDef): string {
  const prefix = `${type.schema}:`.toLowerCase();
  return path.toLowerCase().startsWith(prefix) ? path.slice(prefix.length) : path;
}
