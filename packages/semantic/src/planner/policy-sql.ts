import type { Caller, Cube, DataModel, Member, PolicyFilter, View } from '../model.js';
import { ALWAYS_FALSE, ALWAYS_TRUE, renderFilter, type FilterContext, type FilterTarget } from './filters.js';
import { policyValues, rowFilters } from './policy.js';
import type { Operator, FilterValue } from './query.js';
import type { Resolved } from './resolve.js';

interface Restriction {
  readonly owner: Cube | View;
  readonly filters: readonly PolicyFilter[];
}

/** Row-level security for a query: which members the conditions need and how to write them. */
export interface PolicyConditions {
  readonly members: readonly Member[];
  render(targetOf: (m: Member) => FilterTarget, ctx: FilterContext): string[];
}

function ownerMember(model: DataModel, owner: Cube | View, name: string): Member | undefined {
  if (owner.kind === 'view') return owner.members.get(name)?.target;
  return owner.measures.get(name) ?? owner.dimensions.get(name) ?? owner.segments.get(name);
}

function policyMembers(f: PolicyFilter, into: string[] = []): string[] {
  if (f.member) into.push(f.member);
  for (const x of [...(f.and ?? []), ...(f.or ?? [])]) policyMembers(x, into);
  return into;
}

export function policyConditions(model: DataModel, used: readonly Resolved[], caller: Caller): PolicyConditions {
  // Policies of the addressed cube or view, and, for view members, of the cubes behind them too.
  const byOwner = new Map<Cube | View, Set<string>>();
  const note = (owner: Cube | View, name: string): void => {
    byOwner.set(owner, (byOwner.get(owner) ?? new Set()).add(name));
  };
  for (const u of used) {
    note(u.owner, u.ownerMember);
    if (u.owner.kind === 'view') {
      const cube = model.cubes.get(u.member.cube);
      if (cube) note(cube, u.member.name);
    }
  }
  const restrictions: Restriction[] = [];
  for (const [owner, names] of byOwner) {
    const filters = rowFilters(owner.accessPolicy, [...names], caller);
    if (filters) restrictions.push({ owner, filters });
  }
  const members = restrictions.flatMap((res) =>
    res.filters
      .flatMap((f) => policyMembers(f))
      .map((n) => ownerMember(model, res.owner, n))
      .filter((m): m is Member => m !== undefined),
  );
  return {
    members,
    render(targetOf, ctx) {
      return restrictions.map((res) => {
        const walk = (f: PolicyFilter): string => {
          if (f.and) return f.and.length === 0 ? ALWAYS_TRUE : f.and.map((x) => `(${walk(x)})`).join(' AND ');
          if (f.or) return f.or.length === 0 ? ALWAYS_FALSE : f.or.map((x) => `(${walk(x)})`).join(' OR ');
          const member = ownerMember(model, res.owner, f.member ?? '');
          const values = policyValues(f.values, caller);
          // A missing attribute or a value that is not a scalar closes the door rather than opening it.
          if (!member || values === undefined || !values.every(isScalar)) return ALWAYS_FALSE;
          const key = `${res.owner.name}.${f.member ?? ''}`;
          const sub: FilterContext = { ...ctx, target: () => targetOf(member) };
          return renderFilter({ member: key, operator: (f.operator ?? 'equals') as Operator, values: values.map(scalar) }, sub);
        };
        return res.filters.map((f) => `(${walk(f)})`).join(' AND ');
      });
    },
  };
}

function isScalar(v: unknown): boolean {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

function scalar(v: unknown): FilterValue {
  return v as FilterValue;
}
