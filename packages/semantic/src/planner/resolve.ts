import { QueryError } from '../errors.js';
import type { AccessPolicy, Caller, Cube, DataModel, Dimension, Measure, Member, Segment, View } from '../model.js';
import { memberVisible } from './policy.js';

/** A query member bound to the cube member that computes it. */
export interface Resolved<M extends Member = Member> {
  /** The name the query used, e.g. `sales.status` for a view member. */
  readonly path: string;
  readonly member: M;
  /** The cube or view the query addressed; access policies are checked against it. */
  readonly owner: Cube | View;
  readonly ownerMember: string;
  readonly joinPath?: readonly string[];
  readonly title: string;
  readonly shortTitle: string;
}

function policiesOf(owner: Cube | View): readonly AccessPolicy[] | undefined {
  return owner.accessPolicy;
}

/** Finds `cube.member` for a caller; hidden members get exactly the error unknown ones get. */
export function resolveMember(model: DataModel, path: string, caller: Caller): Resolved {
  const dot = path.indexOf('.');
  const ownerName = dot < 0 ? path : path.slice(0, dot);
  const name = dot < 0 ? '' : path.slice(dot + 1);
  const view = model.views.get(ownerName);
  const cube = view ? undefined : model.cubes.get(ownerName);
  const owner = view ?? cube;
  const notFound = (): QueryError => new QueryError(`'${name}' not found for path '${path}'`);
  const ownerHidden =
    !owner ||
    !owner.public ||
    !(
      owner.accessPolicy === undefined ||
      owner.accessPolicy.some((policy) => policy.groups.includes('*') || policy.groups.some((group) => caller.groups.includes(group)))
    );
  if (ownerHidden) throw new QueryError(`Cube '${ownerName}' not found for path '${path}'`);
  if (view) {
    const vm = view.members.get(name);
    // A view does not widen access: the underlying cube's policies still decide too.
    const targetCube = vm ? model.cubes.get(vm.target.cube) : undefined;
    if (
      !vm ||
      !vm.public ||
      !memberVisible(policiesOf(view), name, caller) ||
      !memberVisible(targetCube?.accessPolicy, vm.target.name, caller)
    )
      throw notFound();
    return { path, member: vm.target, owner: view, ownerMember: name, joinPath: vm.joinPath, title: vm.title, shortTitle: vm.shortTitle };
  }
  const ownerCube = cube as Cube;
  const member = ownerCube.measures.get(name) ?? ownerCube.dimensions.get(name) ?? ownerCube.segments.get(name);
  if (!member || !member.public || !memberVisible(policiesOf(ownerCube), name, caller)) throw notFound();
  return { path, member, owner: ownerCube, ownerMember: name, title: member.title, shortTitle: member.shortTitle };
}

export function resolveMeasure(model: DataModel, path: string, caller: Caller): Resolved<Measure> {
  const resolved = resolveMember(model, path, caller);
  if (resolved.member.kind !== 'measure') throw new QueryError(`'${path}' is not a measure`);
  return resolved as Resolved<Measure>;
}

export function resolveDimension(model: DataModel, path: string, caller: Caller): Resolved<Dimension> {
  const resolved = resolveMember(model, path, caller);
  if (resolved.member.kind !== 'dimension') throw new QueryError(`'${path}' is not a dimension`);
  return resolved as Resolved<Dimension>;
}

export function resolveSegment(model: DataModel, path: string, caller: Caller): Resolved<Segment> {
  const resolved = resolveMember(model, path, caller);
  if (resolved.member.kind !== 'segment') throw new QueryError(`'${path}' is not a segment`);
  return resolved as Resolved<Segment>;
}
