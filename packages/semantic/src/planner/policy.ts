import type { AccessPolicy, Caller, PolicyFilter } from '../model.js';

export const EVERYONE: Caller = { groups: [], userAttributes: {}, securityContext: {} };

function applies(p: AccessPolicy, caller: Caller): boolean {
  return p.groups.includes('*') || p.groups.some((g) => caller.groups.includes(g));
}

function grants(p: AccessPolicy, member: string): boolean {
  if (p.excludes.includes('*') || p.excludes.includes(member)) return false;
  return p.includes === '*' || p.includes.includes(member);
}

/** Member-level access: the union over the policies that apply (Cube combines policies with OR). */
export function memberVisible(policies: readonly AccessPolicy[] | undefined, member: string, caller: Caller): boolean {
  if (!policies) return true;
  return policies.some((p) => applies(p, caller) && grants(p, member));
}

/**
 * Row-level access for a query touching `members` of one cube or view: the OR of the row filters of
 * every applying policy that grants all those members. `undefined` means no restriction;
 * an empty list means no rows.
 */
export function rowFilters(
  policies: readonly AccessPolicy[] | undefined,
  members: readonly string[],
  caller: Caller,
): PolicyFilter[] | undefined {
  if (!policies) return undefined;
  const granting = policies.filter((p) => applies(p, caller) && members.every((m) => grants(p, m)));
  if (granting.length === 0) return [{ or: [] }];
  if (granting.some((p) => p.rowFilters === undefined)) return undefined;
  return [{ or: granting.map((p) => ({ and: [...(p.rowFilters ?? [])] })) }];
}

const PLACEHOLDER = /^\s*\{\s*(userAttributes|securityContext)\.([A-Za-z0-9_.]+)\s*\}\s*$/;

/**
 * Substitutes `{ userAttributes.x }` / `{ securityContext.a.b }` in policy filter values.
 * A missing attribute yields `undefined`, which the planner turns into "no rows", never "all rows".
 */
export function policyValues(values: readonly unknown[] | undefined, caller: Caller): unknown[] | undefined {
  if (values === undefined) return [];
  const out: unknown[] = [];
  for (const v of values) {
    const m = typeof v === 'string' ? PLACEHOLDER.exec(v) : null;
    if (!m) {
      out.push(v);
      continue;
    }
    let value: unknown = m[1] === 'userAttributes' ? caller.userAttributes : caller.securityContext;
    for (const key of (m[2] ?? '').split('.')) {
      value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    }
    if (value === undefined || value === null) return undefined;
    if (Array.isArray(value)) out.push(...(value as unknown[]));
    else out.push(value);
  }
  return out;
}
