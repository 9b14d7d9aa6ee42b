import type { Filter } from 'scim2-parse-filter';
import { findAttr, type AttributeDef } from './attributes.js';
import { invalidFilter } from './errors.js';

/**
 * Evaluates a value filter (`members[value eq "…"]`) against one item of a multi-valued attribute,
 * in memory, with the same rules as the SQL translation: case-insensitive strings unless the
 * sub-attribute is caseExact.
 */
export function matchesItem(filter: Filter, item: Record<string, unknown>, parent: AttributeDef): boolean {
  switch (filter.op) {
    case 'and':
      return filter.filters.every((f) => matchesItem(f, item, parent));
    case 'or':
      return filter.filters.some((f) => matchesItem(f, item, parent));
    case 'not':
      return !matchesItem(filter.filter, item, parent);
    case '[]':
      throw invalidFilter('A value filter cannot be nested inside another');
    default: {
      const def = parent.subAttributes && findAttr(parent.subAttributes, filter.attrPath);
      if (!def) throw invalidFilter(`"${filter.attrPath}" is not a sub-attribute of ${parent.name}`);
      const key = Object.keys(item).find((k) => k.toLowerCase() === def.name.toLowerCase());
      const actual = key === undefined ? undefined : item[key];
      if (filter.op === 'pr') return actual !== undefined && actual !== null && actual !== '';
      return compareValues(filter.op, actual, filter.compValue, def);
    }
  }
}

function compareValues(op: string, actual: unknown, expected: unknown, def: AttributeDef): boolean {
  if (actual === undefined || actual === null) return op === 'ne' ? expected !== null : op === 'eq' && expected === null;
  const norm = (v: unknown) => (typeof v === 'string' && !def.caseExact ? v.toLowerCase() : v);
  const a = norm(actual);
  const b = norm(expected);
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'co':
      return typeof a === 'string' && typeof b === 'string' && a.includes(b);
    case 'sw':
      return typeof a === 'string' && typeof b === 'string' && a.startsWith(b);
    case 'ew':
      return typeof a === 'string' && typeof b === 'string' && a.endsWith(b);
    case 'gt':
      return (a as string) > (b as string);
    case 'ge':
      return (a as string) >= (b as string);
    case 'lt':
      return (a as string) < (b as string);
    case 'le':
      return (a as string) <= (b as string);
    default:
      throw invalidFilter(`Unknown operator "${op}"`);
  }
}
