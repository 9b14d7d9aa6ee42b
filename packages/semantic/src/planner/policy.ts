import type { AccessPolicy, Caller, ConditionExpr, PolicyFilter } from '../model.js';

export const EVERYONE: Caller = { groups: [], userAttributes: {}, securityContext: {} };

/** A policy applies when the caller is in one of its groups and every one of its conditions holds. */
export function policyApplies(policy: AccessPolicy, caller: Caller): boolean {
  const inGroup = policy.groups.includes('*') || policy.groups.some((g) => caller.groups.includes(g));
  return inGroup && (policy.conditions ?? []).every((c) => truthy(evaluateCondition(c, caller)));
}

function grants(policy: AccessPolicy, member: string): boolean {
  if (policy.excludes.includes('*') || policy.excludes.includes(member)) return false;
  return policy.includes === '*' || policy.includes.includes(member);
}

/** Whether a cube or view with these policies is visible at all: some policy applies. */
export function ownerVisible(policies: readonly AccessPolicy[] | undefined, caller: Caller): boolean {
  return policies === undefined || policies.some((p) => policyApplies(p, caller));
}

/** Member-level access: the union over the policies that apply (Cube combines policies with OR). */
export function memberVisible(policies: readonly AccessPolicy[] | undefined, member: string, caller: Caller): boolean {
  if (!policies) return true;
  return policies.some((p) => policyApplies(p, caller) && grants(p, member));
}

/**
 * Row-level access for a query touching `members` of one cube or view: the OR of the row filters of
 * every applying policy that grants all those members (for a cube the query only reads through a join,
 * `members` is empty and every applying policy counts). `undefined` means no restriction; a list
 * holding an empty `or` means no rows.
 */
export function rowFilters(
  policies: readonly AccessPolicy[] | undefined,
  members: readonly string[],
  caller: Caller,
): PolicyFilter[] | undefined {
  if (!policies) return undefined;
  const granting = policies.filter((p) => policyApplies(p, caller) && members.every((m) => grants(p, m)));
  if (granting.length === 0) return [{ or: [] }];
  if (granting.some((p) => p.rowFilters === undefined)) return undefined;
  return [{ or: granting.map((p) => ({ and: [...(p.rowFilters ?? [])] })) }];
}

/** Reads `securityContext.a.b` or `userAttributes.a` of the caller; undefined when absent. */
export function contextValue(caller: Caller, root: 'securityContext' | 'userAttributes', path: readonly string[]): unknown {
  let value: unknown = root === 'userAttributes' ? caller.userAttributes : caller.securityContext;
  for (const key of path) {
    value = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** Python truthiness, as Cube's YAML conditions are Python expressions. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length > 0;
  return Boolean(value);
}

export function evaluateCondition(expr: ConditionExpr, caller: Caller): unknown {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'ref':
      return contextValue(caller, expr.root, expr.path) ?? null;
    case 'list':
      return expr.items.map((item) => evaluateCondition(item, caller));
    case 'not':
      return !truthy(evaluateCondition(expr.operand, caller));
    case 'and':
      return expr.operands.every((o) => truthy(evaluateCondition(o, caller)));
    case 'or':
      return expr.operands.some((o) => truthy(evaluateCondition(o, caller)));
    case 'compare':
      return compare(expr.op, evaluateCondition(expr.left, caller), evaluateCondition(expr.right, caller));
  }
}

function compare(op: Extract<ConditionExpr, { kind: 'compare' }>['op'], left: unknown, right: unknown): boolean {
  if (op === 'in' || op === 'not in') {
    const found = Array.isArray(right)
      ? right.some((item) => item === left)
      : typeof right === 'string' && typeof left === 'string' && right.includes(left);
    return op === 'in' ? found : !found;
  }
  if (op === '==') return left === right;
  if (op === '!=') return left !== right;
  // Ordering compares numbers with numbers and strings with strings; anything else is false, not an error.
  const comparable = (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
  if (!comparable) return false;
  const [leftValue, rightValue] = [left as number | string, right as number | string];
  return op === '<'
    ? leftValue < rightValue
    : op === '<='
      ? leftValue <= rightValue
      : op === '>'
        ? leftValue > rightValue
        : leftValue >= rightValue;
}

const PLACEHOLDER = /\{\s*(userAttributes|securityContext|user_attributes|security_context)\.([A-Za-z0-9_.]+)\s*\}/g;
const WHOLE_PLACEHOLDER = /^\s*\{\s*(userAttributes|securityContext|user_attributes|security_context)\.([A-Za-z0-9_.]+)\s*\}\s*$/;

function rootOf(name: string | undefined): 'securityContext' | 'userAttributes' {
  return name === 'userAttributes' || name === 'user_attributes' ? 'userAttributes' : 'securityContext';
}

/**
 * Substitutes `{ userAttributes.x }` / `{ securityContext.a.b }` in policy filter values. A value that is
 * one placeholder takes the attribute as it is (a list spreads into several values); placeholders inside
 * longer text are interpolated as text. A missing attribute yields `undefined`, which the planner turns
 * into "no rows", never "all rows".
 */
export function policyValues(values: readonly unknown[] | undefined, caller: Caller): unknown[] | undefined {
  if (values === undefined) return [];
  const out: unknown[] = [];
  for (const value of values) {
    if (typeof value !== 'string' || !value.includes('{')) {
      out.push(value);
      continue;
    }
    const whole = WHOLE_PLACEHOLDER.exec(value);
    if (whole) {
      const attribute = contextValue(caller, rootOf(whole[1]), (whole[2] ?? '').split('.'));
      if (attribute === undefined || attribute === null) return undefined;
      if (Array.isArray(attribute)) out.push(...(attribute as unknown[]));
      else out.push(attribute);
      continue;
    }
    let missing = false;
    const text = value.replace(PLACEHOLDER, (_, root: string, path: string) => {
      const attribute = contextValue(caller, rootOf(root), path.split('.'));
      if (attribute === undefined || attribute === null || typeof attribute === 'object') missing = true;
      return String(attribute);
    });
    if (missing) return undefined;
    out.push(text);
  }
  return out;
}
