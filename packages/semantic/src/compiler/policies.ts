import type { AccessPolicy, PolicyFilter } from '../model.js';
import type { Diagnostics, Location } from './diagnostics.js';
import { isObj, pick, str, stringList } from './fields.js';

const OPERATORS = new Set([
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'set',
  'notSet',
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
]);

/**
 * Reads `access_policy` of a cube or view. `hasMember` checks names against the owner so a
 * typo in a policy is a compile error, not a silently open or closed door.
 */
export function readPolicies(
  raw: unknown,
  owner: string,
  fileName: string,
  at: Location | undefined,
  hasMember: (name: string) => boolean,
  diagnostics: Diagnostics,
): AccessPolicy[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) {
    diagnostics.error(fileName, `\`access_policy\` of ${owner} must be a list`, at);
    return [];
  }
  const policies: AccessPolicy[] = [];
  for (const p of raw as unknown[]) {
    if (!isObj(p)) {
      diagnostics.error(fileName, `Each access policy of ${owner} must be a mapping`, at);
      continue;
    }
    const groups = stringList(p['groups']) ?? stringList(p['group']) ?? stringList(p['role']);
    if (!groups) {
      diagnostics.error(fileName, `An access policy of ${owner} needs \`group\` or \`groups\` (use "*" for everyone)`, at);
      continue;
    }
    if (p['conditions'] !== undefined) {
      // Ignoring a condition would grant access it was meant to withhold, so refuse the model instead.
      diagnostics.error(
        fileName,
        `Access policy \`conditions\` of ${owner} are not supported yet; express the rule with groups and row_level filters`,
        at,
      );
      continue;
    }
    const memberLevel = pick(p, 'member_level');
    let includes: AccessPolicy['includes'] = '*';
    let excludes: string[] = [];
    if (isObj(memberLevel)) {
      const inc = memberLevel['includes'];
      includes = inc === undefined || inc === '*' ? '*' : (stringList(inc) ?? []);
      const exc = memberLevel['excludes'];
      excludes = exc === '*' ? ['*'] : (stringList(exc) ?? []);
      for (const name of [...(includes === '*' ? [] : includes), ...excludes]) {
        if (name !== '*' && !hasMember(stripOwner(name, owner))) {
          diagnostics.error(fileName, `Access policy of ${owner} names member ${name}, which ${owner} does not have`, at);
        }
      }
    }
    const rowLevel = pick(p, 'row_level');
    let rowFilters: PolicyFilter[] | undefined;
    if (isObj(rowLevel) && rowLevel['allow_all'] !== true) {
      rowFilters = Array.isArray(rowLevel['filters'])
        ? (rowLevel['filters'] as unknown[]).map((f) => readFilter(f, owner, fileName, at, hasMember, diagnostics))
        : [];
      if (rowLevel['allow_all'] === false && rowFilters.length === 0) rowFilters = [{ or: [] }];
    }
    policies.push({
      groups,
      includes: includes === '*' ? '*' : includes.map((n) => stripOwner(n, owner)),
      excludes: excludes.map((n) => stripOwner(n, owner)),
      rowFilters,
    });
  }
  return policies;
}

function stripOwner(name: string, owner: string): string {
  return name.startsWith(`${owner}.`) ? name.slice(owner.length + 1) : name;
}

function readFilter(
  f: unknown,
  owner: string,
  fileName: string,
  at: Location | undefined,
  hasMember: (name: string) => boolean,
  diagnostics: Diagnostics,
): PolicyFilter {
  if (!isObj(f)) {
    diagnostics.error(fileName, `A row_level filter of ${owner} must be a mapping`, at);
    return { or: [] };
  }
  for (const key of ['and', 'or'] as const) {
    if (Array.isArray(f[key])) {
      return { [key]: (f[key] as unknown[]).map((x) => readFilter(x, owner, fileName, at, hasMember, diagnostics)) };
    }
  }
  const member = str(f['member']);
  const operator = str(f['operator']);
  if (!member || !hasMember(stripOwner(member, owner))) {
    diagnostics.error(fileName, `A row_level filter of ${owner} names member ${member ?? '(none)'}, which ${owner} does not have`, at);
  }
  if (!operator || !OPERATORS.has(operator)) {
    diagnostics.error(fileName, `A row_level filter of ${owner} has unknown operator '${operator ?? ''}'`, at);
  }
  const values = f['values'] === undefined ? undefined : Array.isArray(f['values']) ? f['values'] : [f['values']];
  return { member: member ? stripOwner(member, owner) : '', operator: operator ?? 'equals', values };
}
