import type { AccessPolicy, ConditionExpr, PolicyFilter } from '../model.js';
import { OPERATORS as QUERY_OPERATORS } from '../planner/query.js';
import { parseCondition } from './conditions.js';
import type { Diagnostics, Location } from './diagnostics.js';
import { isObj, str, stringList, type Obj } from './fields.js';

// A row_level filter takes every operator of a query filter except measureFilter, which needs a measure.
const OPERATORS: ReadonlySet<string> = new Set(QUERY_OPERATORS.filter((operator) => operator !== 'measureFilter'));

// Keys are compared after removing underscores and case, so `member_level` and `memberLevel` are one key.
const POLICY_KEYS = new Set(['group', 'groups', 'role', 'conditions', 'memberlevel', 'rowlevel']);
const MEMBER_LEVEL_KEYS = new Set(['includes', 'excludes']);
const ROW_LEVEL_KEYS = new Set(['filters', 'allowall']);
const FILTER_KEYS = new Set(['member', 'operator', 'values', 'and', 'or']);

const normalized = (key: string): string => key.replace(/_/g, '').toLowerCase();
const field = (obj: Obj, key: string): unknown => {
  const found = Object.keys(obj).find((k) => normalized(k) === key);
  return found === undefined ? undefined : obj[found];
};

/** A value placeholder that reads something other than the caller's attributes would silently be text. */
const VALUE_REFERENCE = /\{\s*([^}]*?)\s*\}/g;
const VALID_VALUE_REFERENCE = /^(userAttributes|securityContext|user_attributes|security_context)(\.[A-Za-z0-9_]+)+$/;

/** What a member name of the policy's owner is, or undefined when the owner has no such member. */
export type MemberKindOf = (name: string) => 'measure' | 'dimension' | 'segment' | undefined;

interface Reader {
  readonly owner: string;
  readonly fileName: string;
  readonly at: Location | undefined;
  readonly kindOf: MemberKindOf;
  readonly diagnostics: Diagnostics;
}

/**
 * Reads `access_policy` of a cube or view. Every key is checked: an unknown one, a member the owner does
 * not have, or a condition that cannot be read is a compile error, never a silently open or closed door.
 */
export function readPolicies(
  raw: unknown,
  owner: string,
  fileName: string,
  at: Location | undefined,
  kindOf: MemberKindOf,
  diagnostics: Diagnostics,
): AccessPolicy[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const reader: Reader = { owner, fileName, at, kindOf, diagnostics };
  const error = (message: string): void => diagnostics.error(fileName, message, at);
  if (!Array.isArray(raw)) {
    error(`\`access_policy\` of ${owner} must be a list`);
    return [];
  }
  const policies: AccessPolicy[] = [];
  for (const p of raw as unknown[]) {
    if (!isObj(p)) {
      error(`Each access policy of ${owner} must be a mapping`);
      continue;
    }
    if (!checkKeys(p, POLICY_KEYS)) continue;
    const groupKeys = ['role', 'group', 'groups'].filter((key) => p[key] !== undefined);
    if (groupKeys.length > 1) {
      error(`An access policy of ${owner} has both ${groupKeys.map((k) => `\`${k}\``).join(' and ')}; use one of them`);
      continue;
    }
    const groups = stringList(p['groups']) ?? stringList(p['group']) ?? stringList(p['role']);
    if (!groups) {
      error(`An access policy of ${owner} needs \`group\` or \`groups\` (use "*" for everyone)`);
      continue;
    }
    const conditions = readConditions(field(p, 'conditions'), reader);
    const memberLevel = field(p, 'memberlevel');
    let includes: AccessPolicy['includes'] = '*';
    let excludes: string[] = [];
    if (memberLevel !== undefined) {
      if (!isObj(memberLevel)) error(`\`member_level\` of an access policy of ${owner} must be a mapping`);
      else if (checkKeys(memberLevel, MEMBER_LEVEL_KEYS)) {
        includes = readMemberList(memberLevel['includes'], 'includes', reader) ?? '*';
        const excluded = readMemberList(memberLevel['excludes'], 'excludes', reader) ?? [];
        excludes = excluded === '*' ? ['*'] : excluded;
      }
    }
    const rowLevel = field(p, 'rowlevel');
    let rowFilters: PolicyFilter[] | undefined;
    if (rowLevel !== undefined) {
      if (!isObj(rowLevel)) error(`\`row_level\` of an access policy of ${owner} must be a mapping`);
      else if (checkKeys(rowLevel, ROW_LEVEL_KEYS)) {
        rowFilters = readRowLevel(rowLevel, reader);
      }
    }
    policies.push({ groups, ...(conditions ? { conditions } : {}), includes, excludes, rowFilters });
  }
  return policies;
}

/**
 * Whether a mapping holds only the keys this reader knows. The keyword table (keywords.ts, checked
 * before any reader runs) has already reported every other key by name, so this only keeps a policy
 * with one out of the model instead of reading it half.
 */
function checkKeys(obj: Obj, allowed: ReadonlySet<string>): boolean {
  return Object.keys(obj).every((key) => allowed.has(normalized(key)));
}

function readConditions(raw: unknown, reader: Reader): ConditionExpr[] | undefined {
  if (raw === undefined) return undefined;
  const where = `\`conditions\` of an access policy of ${reader.owner}`;
  if (!Array.isArray(raw)) {
    reader.diagnostics.error(reader.fileName, `${where} must be a list of {if: ...}`, reader.at);
    return [{ kind: 'literal', value: false }];
  }
  return (raw as unknown[]).map((c) => {
    const condition = isObj(c) && Object.keys(c).length === 1 ? c['if'] : undefined;
    const text = typeof condition === 'string' ? condition : undefined;
    const parsed =
      condition !== undefined && text === undefined
        ? // A JavaScript model's comparison is computed once, when the model is compiled: its result would hold for every caller.
          `\`if\` is ${JSON.stringify(condition)}, not an expression over the security context (write it as text, e.g. "{ securityContext.clearance >= 3 }")`
        : text === undefined
          ? `each condition must be {if: "{ securityContext.x }"}`
          : parseCondition(text);
    if (typeof parsed !== 'string') return parsed;
    reader.diagnostics.error(reader.fileName, `${where} cannot be read: ${parsed}${text ? ` (in ${text})` : ''}`, reader.at);
    // The model is invalid anyway; a condition that never holds keeps what was compiled closed.
    return { kind: 'literal', value: false };
  });
}

function readMemberList(raw: unknown, key: string, reader: Reader): '*' | string[] | undefined {
  if (raw === undefined) return undefined;
  if (raw === '*') return '*';
  const names = Array.isArray(raw) && raw.every((x) => typeof x === 'string') ? (raw as string[]) : undefined;
  if (!names) {
    reader.diagnostics.error(
      reader.fileName,
      `\`${key}\` of an access policy of ${reader.owner} must be "*" or a list of members`,
      reader.at,
    );
    return key === 'includes' ? [] : ['*'];
  }
  for (const name of names) {
    if (reader.kindOf(stripOwner(name, reader.owner)) === undefined) {
      reader.diagnostics.error(
        reader.fileName,
        `Access policy of ${reader.owner} names member ${name}, which ${reader.owner} does not have`,
        reader.at,
      );
    }
  }
  return names.map((n) => stripOwner(n, reader.owner));
}

function readRowLevel(rowLevel: Obj, reader: Reader): PolicyFilter[] | undefined {
  const allowAll = field(rowLevel, 'allowall');
  const filters = rowLevel['filters'];
  if (allowAll !== undefined && typeof allowAll !== 'boolean') {
    reader.diagnostics.error(reader.fileName, `\`allow_all\` of an access policy of ${reader.owner} must be true or false`, reader.at);
  }
  if (allowAll === true) {
    if (filters !== undefined) {
      reader.diagnostics.error(
        reader.fileName,
        `An access policy of ${reader.owner} has both \`allow_all: true\` and \`filters\``,
        reader.at,
      );
    }
    return undefined;
  }
  if (filters === undefined) return [{ or: [] }];
  if (!Array.isArray(filters)) {
    reader.diagnostics.error(reader.fileName, `\`filters\` of an access policy of ${reader.owner} must be a list`, reader.at);
    return [{ or: [] }];
  }
  // No filters and no allow_all: the policy grants no rows (the door stays closed).
  return filters.length === 0 ? [{ or: [] }] : (filters as unknown[]).map((f) => readFilter(f, reader));
}

function stripOwner(name: string, owner: string): string {
  return name.startsWith(`${owner}.`) ? name.slice(owner.length + 1) : name;
}

function readFilter(f: unknown, reader: Reader): PolicyFilter {
  const { owner, fileName, at, diagnostics } = reader;
  if (!isObj(f)) {
    diagnostics.error(fileName, `A row_level filter of ${owner} must be a mapping`, at);
    return { or: [] };
  }
  if (!checkKeys(f, FILTER_KEYS)) return { or: [] };
  for (const key of ['and', 'or'] as const) {
    if (f[key] === undefined) continue;
    if (!Array.isArray(f[key]) || Object.keys(f).length > 1) {
      diagnostics.error(fileName, `\`${key}\` in a row_level filter of ${owner} must be the only key and hold a list of filters`, at);
      return { or: [] };
    }
    return { [key]: (f[key] as unknown[]).map((x) => readFilter(x, reader)) };
  }
  const member = str(f['member']);
  const operator = str(f['operator']);
  const kind = member ? reader.kindOf(stripOwner(member, owner)) : undefined;
  if (!member || !kind) {
    diagnostics.error(fileName, `A row_level filter of ${owner} names member ${member ?? '(none)'}, which ${owner} does not have`, at);
  } else if (kind !== 'dimension') {
    // A measure or segment has no value per row to compare; the planner would write an empty comparison.
    diagnostics.error(fileName, `A row_level filter of ${owner} names ${member}, a ${kind}: row_level filters name dimensions`, at);
  }
  if (!operator || !OPERATORS.has(operator)) {
    diagnostics.error(fileName, `A row_level filter of ${owner} has unknown operator '${operator ?? ''}'`, at);
  }
  const values = f['values'] === undefined ? undefined : Array.isArray(f['values']) ? (f['values'] as unknown[]) : [f['values']];
  for (const value of values ?? []) {
    if (typeof value !== 'string') continue;
    for (const match of value.matchAll(VALUE_REFERENCE)) {
      if (!VALID_VALUE_REFERENCE.test(match[1] ?? '')) {
        diagnostics.error(
          fileName,
          `A row_level filter value of ${owner} reads {${match[1] ?? ''}}: only { securityContext.x } and { userAttributes.x } are supported`,
          at,
        );
      }
    }
  }
  return { member: member ? stripOwner(member, owner) : '', operator: operator ?? 'equals', values };
}
