import { QueryError } from '../errors.js';
import type { AccessPolicy, Caller, Cube, DataModel, Dimension, Measure, Member, Segment, View } from '../model.js';
import { memberVisible, ownerVisible } from './policy.js';

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
  /**
   * Whether Cube's API shows the member (`public`, a primary key hidden by default, a hidden cube or
   * view). A hidden member works in filters, segments and order; a query may not select it.
   */
  readonly visible: boolean;
}

function policiesOf(owner: Cube | View): readonly AccessPolicy[] | undefined {
  return owner.accessPolicy;
}

/**
 * Cube's answer for a member that exists but that the caller may not use (member-level access policy)
 * or select (not public): the hidden-member error, naming the member by its column alias as Cube does.
 */
export function hiddenMember(path: string, alias = path.replace(/\./g, '__')): QueryError {
  return new QueryError(
    `You requested hidden member: '${alias}'. Please make it visible using \`shown: true\`. Please note primaryKey fields are \`shown: false\` by default: https://cube.dev/docs/schema/reference/joins#setting-a-primary-key.`,
  );
}

/**
 * Finds `cube.member` for a caller; members the caller's access policies hide get Cube's hidden-member
 * error. A member that is not public resolves, marked not visible: the query decides whether it may use it.
 */
export function resolveMember(model: DataModel, path: string, caller: Caller): Resolved {
  const dot = path.indexOf('.');
  const ownerName = dot < 0 ? path : path.slice(0, dot);
  const name = dot < 0 ? '' : path.slice(dot + 1);
  const view = model.views.get(ownerName);
  const cube = view ? undefined : model.cubes.get(ownerName);
  const owner = view ?? cube;
  const notFound = (): QueryError => new QueryError(`'${name}' not found for path '${path}'`);
  if (!owner) throw new QueryError(`Cube '${ownerName}' not found for path '${path}'`);
  const exists = view
    ? view.members.has(name)
    : Boolean(cube?.measures.has(name) || cube?.dimensions.has(name) || cube?.segments.has(name));
  if (exists && !ownerVisible(owner.accessPolicy, caller)) throw hiddenMember(path);
  if (view) {
    const viewMember = view.members.get(name);
    // A view does not widen access: the underlying cube's policies still decide too.
    const targetCube = viewMember ? model.cubes.get(viewMember.target.cube) : undefined;
    if (!viewMember) throw notFound();
    if (!memberVisible(policiesOf(view), name, caller) || !memberVisible(targetCube?.accessPolicy, viewMember.target.name, caller))
      throw hiddenMember(path);
    const visible = view.public && viewMember.public;
    return {
      path,
      member: viewMember.target,
      owner: view,
      ownerMember: name,
      joinPath: viewMember.joinPath,
      title: viewMember.title,
      shortTitle: viewMember.shortTitle,
      visible,
    };
  }
  const ownerCube = cube as Cube;
  const member = ownerCube.measures.get(name) ?? ownerCube.dimensions.get(name) ?? ownerCube.segments.get(name);
  if (!member) throw notFound();
  if (!memberVisible(policiesOf(ownerCube), name, caller)) throw hiddenMember(path);
  const visible = ownerCube.public && member.public;
  return { path, member, owner: ownerCube, ownerMember: name, title: member.title, shortTitle: member.shortTitle, visible };
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
