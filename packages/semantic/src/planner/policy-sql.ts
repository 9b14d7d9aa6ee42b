import type { Caller, Cube, DataModel, Member, PolicyFilter, View } from '../model.js';
import { ALWAYS_FALSE, ALWAYS_TRUE, renderFilter, type FilterContext, type FilterTarget } from './filters.js';
import { buildJoinTree, type JoinTree } from './joins.js';
import { policyValues, rowFilters } from './policy.js';
import type { Operator, FilterValue } from './query.js';
import { memberCubes } from './model-lookup.js';
import type { Resolved } from './resolve.js';

/** Policy operators that take no values: only for these is an empty list not a closed door. */
const VALUELESS_OPERATORS: ReadonlySet<string> = new Set(['set', 'notSet']);

interface Restriction {
  readonly owner: Cube | View;
  readonly filters: readonly PolicyFilter[];
}

/** One cube's or view's row-level condition, and the cubes its members read. */
export interface RenderedRestriction {
  readonly owner: string;
  readonly cubes: ReadonlySet<string>;
  readonly sql: string;
}

/** Row-level security for a query: which members the conditions need and how to write them. */
export interface PolicyConditions {
  readonly members: readonly Member[];
  /** View join paths the conditions on view members need (a view's filter member may sit on a cube not yet joined). */
  readonly joinPaths: ReadonlyArray<readonly string[]>;
  render(targetOf: (member: Member) => FilterTarget, ctx: FilterContext): string[];
  /** The same conditions, each with its owner and the cubes it reads, for a caller that places them itself. */
  renderEach(targetOf: (member: Member) => FilterTarget, ctx: FilterContext): RenderedRestriction[];
}

function ownerMember(model: DataModel, owner: Cube | View, name: string): Member | undefined {
  if (owner.kind === 'view') return owner.members.get(name)?.target;
  return owner.measures.get(name) ?? owner.dimensions.get(name) ?? owner.segments.get(name);
}

function policyMembers(filter: PolicyFilter, into: string[] = []): string[] {
  if (filter.member) into.push(filter.member);
  for (const sub of [...(filter.and ?? []), ...(filter.or ?? [])]) policyMembers(sub, into);
  return into;
}

/**
 * Which policies restrict rows, decided as Cube does (it collects every cube whose members the generated
 * SQL reads, join conditions included): the addressed cube or view, for view members the cubes behind
 * them, and every cube of the join tree — a cube joined only to reach another, or pulled in by a
 * `{other_cube.member}` reference, still has its rows filtered. Each cube's or view's own policies are
 * ORed; the restrictions of different cubes and views are ANDed.
 */
export function policyConditions(
  model: DataModel,
  used: readonly Resolved[],
  caller: Caller,
  treeCubes: Iterable<string> = [],
): PolicyConditions {
  const byOwner = new Map<Cube | View, Set<string>>();
  const note = (owner: Cube | View, name?: string): void => {
    const names = byOwner.get(owner) ?? new Set<string>();
    if (name !== undefined) names.add(name);
    byOwner.set(owner, names);
  };
  for (const resolved of used) {
    note(resolved.owner, resolved.ownerMember);
    if (resolved.owner.kind === 'view') {
      const cube = model.cubes.get(resolved.member.cube);
      if (cube) note(cube, resolved.member.name);
    }
  }
  for (const name of treeCubes) {
    const cube = model.cubes.get(name);
    if (cube) note(cube);
  }
  const restrictions: Restriction[] = [];
  for (const [owner, names] of byOwner) {
    const filters = rowFilters(owner.accessPolicy, [...names], caller);
    if (filters) restrictions.push({ owner, filters });
  }
  const members: Member[] = [];
  const joinPaths: Array<readonly string[]> = [];
  for (const restriction of restrictions) {
    for (const name of restriction.filters.flatMap((f) => policyMembers(f))) {
      const member = ownerMember(model, restriction.owner, name);
      if (member) members.push(member);
      const viewMember = restriction.owner.kind === 'view' ? restriction.owner.members.get(name) : undefined;
      if (viewMember && viewMember.joinPath.length > 1) joinPaths.push(viewMember.joinPath);
    }
  }
  const policy: PolicyConditions = {
    members,
    joinPaths,
    render(targetOf, ctx) {
      return policy.renderEach(targetOf, ctx).map((restriction) => restriction.sql);
    },
    renderEach(targetOf, ctx) {
      return restrictions.map((restriction) => {
        const cubes = new Set<string>();
        for (const name of restriction.filters.flatMap((filter) => policyMembers(filter))) {
          const member = ownerMember(model, restriction.owner, name);
          if (member) memberCubes(model, member, cubes);
        }
        const walk = (filter: PolicyFilter): string => {
          if (filter.and) return filter.and.length === 0 ? ALWAYS_TRUE : filter.and.map((x) => `(${walk(x)})`).join(' AND ');
          if (filter.or) return filter.or.length === 0 ? ALWAYS_FALSE : filter.or.map((x) => `(${walk(x)})`).join(' OR ');
          const member = ownerMember(model, restriction.owner, filter.member ?? '');
          const values = policyValues(filter.values, caller);
          // A missing attribute or a value that is not a scalar closes the door rather than opening it, and so
          // does an empty list for an operator that takes values: `notEquals []` would otherwise show every
          // row (Cube's own planner fails on an empty list, which shows none either).
          if (!member || values === undefined || !values.every(isScalar)) return ALWAYS_FALSE;
          if (values.length === 0 && !VALUELESS_OPERATORS.has(filter.operator ?? 'equals')) return ALWAYS_FALSE;
          const key = `${restriction.owner.name}.${filter.member ?? ''}`;
          const sub: FilterContext = { ...ctx, target: () => targetOf(member) };
          return renderFilter({ member: key, operator: (filter.operator ?? 'equals') as Operator, values: values.map(scalar) }, sub);
        };
        return { owner: restriction.owner.name, cubes, sql: restriction.filters.map((f) => `(${walk(f)})`).join(' AND ') };
      });
    },
  };
  return policy;
}

/**
 * The join tree and the row-level conditions together: the conditions depend on which cubes the tree
 * holds, and a condition on a member of a cube not yet joined (a view's filter, a policy member whose SQL
 * references another cube) widens the tree, so the two are computed until neither changes. Cubes are
 * joined along view paths and join hints first; `cubes` are joined besides those the members reach.
 */
export function joinTreeWithPolicies(
  model: DataModel,
  used: readonly Resolved[],
  caller: Caller,
  joinHints: ReadonlyArray<readonly string[]>,
  cubes: Iterable<string> = [],
): { joinTree: JoinTree; policy: PolicyConditions } {
  const wanted = new Set<string>(cubes);
  for (const resolved of used) memberCubes(model, resolved.member, wanted);
  const required = dedupe([...used.flatMap((resolved) => (resolved.joinPath ? [resolved.joinPath] : [])), ...joinHints]);
  for (const path of required) for (const cube of path) wanted.add(cube);
  for (;;) {
    const joinTree = buildJoinTree(model, [...wanted], required);
    const inTree = new Set([joinTree.root, ...joinTree.joins.map((join) => join.to)]);
    const policy = policyConditions(model, used, caller, inTree);
    const needed = new Set<string>();
    for (const member of policy.members) memberCubes(model, member, needed);
    for (const path of policy.joinPaths) for (const cube of path) needed.add(cube);
    const paths = dedupe([...required, ...policy.joinPaths]);
    const missing = [...needed].filter((cube) => !inTree.has(cube));
    if (missing.length === 0 && paths.length === required.length) return { joinTree, policy };
    for (const cube of needed) wanted.add(cube);
    required.splice(0, required.length, ...paths);
  }
}

function dedupe(paths: ReadonlyArray<readonly string[]>): string[][] {
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const path of paths) {
    const key = path.join('.');
    if (!seen.has(key)) {
      seen.add(key);
      out.push([...path]);
    }
  }
  return out;
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function scalar(value: unknown): FilterValue {
  return value as FilterValue;
}
