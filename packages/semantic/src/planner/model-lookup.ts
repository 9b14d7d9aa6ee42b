import { QueryError } from '../errors.js';
import type { Cube, DataModel, Dimension, Measure, Member, SqlTemplate } from '../model.js';

/**
 * Questions about the compiled model that planning asks before any SQL is written: which cube,
 * which member, which measures aggregate rows, which cubes a member's SQL reaches.
 */

export const MAX_REFERENCE_DEPTH = 64;

function tooDeep(): QueryError {
  return new QueryError('Model references are nested too deeply (is there a cycle?)');
}

export function cubeNamed(model: DataModel, name: string): Cube {
  const cube = model.cubes.get(name);
  if (!cube) throw new QueryError(`Cube '${name}' not found`);
  return cube;
}

export function memberNamed(model: DataModel, cubeName: string, memberName: string): Member {
  const cube = cubeNamed(model, cubeName);
  const member = cube.measures.get(memberName) ?? cube.dimensions.get(memberName) ?? cube.segments.get(memberName);
  if (!member) throw new QueryError(`'${memberName}' not found for path '${cubeName}.${memberName}'`);
  return member;
}

export function primaryKeyDimension(cube: Cube): Dimension | undefined {
  return cube.primaryKey ? cube.dimensions.get(cube.primaryKey) : undefined;
}

/**
 * A count of a cube's rows (a `count` without `sql` of its own) counts the cube's primary key: over
 * joined rows that repeat the cube's rows, counting the distinct keys gives the same number.
 */
export function countsRowsByKey(model: DataModel, measure: Measure): boolean {
  const cube = model.cubes.get(measure.cube);
  return measure.type === 'count' && !measure.sql && cube !== undefined && primaryKeyDimension(cube) !== undefined;
}

/** True when a measure is computed from other measures rather than aggregating rows itself. */
export function isCalculated(model: DataModel, measure: Measure): boolean {
  if (measure.type !== 'number' && measure.type !== 'string' && measure.type !== 'time' && measure.type !== 'boolean') return false;
  return (
    measure.sql !== undefined &&
    measure.sql.parts.some(
      (part) => typeof part !== 'string' && part.kind === 'member' && memberNamed(model, part.cube, part.member).kind === 'measure',
    )
  );
}

/** The measures that aggregate rows, reached from `measure` through calculated measures, by path. */
export function leafMeasures(model: DataModel, measure: Measure, into = new Map<string, Measure>(), depth = 0): Map<string, Measure> {
  if (depth > MAX_REFERENCE_DEPTH) throw tooDeep();
  if (!isCalculated(model, measure)) {
    into.set(measure.path, measure);
    return into;
  }
  for (const part of measure.sql?.parts ?? []) {
    if (typeof part === 'string' || part.kind !== 'member') continue;
    const referenced = memberNamed(model, part.cube, part.member);
    if (referenced.kind === 'measure') leafMeasures(model, referenced, into, depth + 1);
  }
  return into;
}

/** Cubes a template pulls into the query through `{Other.member}` and `{Other}` references. */
export function referencedCubes(model: DataModel, template: SqlTemplate | undefined, into: Set<string>, depth = 0): void {
  if (!template || depth > MAX_REFERENCE_DEPTH) return;
  for (const part of template.parts) {
    // Context references (security context, FILTER_PARAMS) name no cube to join.
    if (typeof part === 'string' || (part.kind !== 'cube' && part.kind !== 'member')) continue;
    into.add(part.cube);
    if (part.kind === 'member') memberCubes(model, memberNamed(model, part.cube, part.member), into, depth + 1);
  }
}

/** The member's own cube and every cube its SQL reaches. */
export function memberCubes(model: DataModel, member: Member, into: Set<string>, depth = 0): void {
  into.add(member.cube);
  // A sub_query dimension reads other cubes inside its own subquery, joined back on this cube's key.
  if (member.kind === 'dimension' && member.subQuery) return;
  referencedCubes(model, member.sql, into, depth);
  if (member.kind === 'measure') for (const filter of member.filters) referencedCubes(model, filter, into, depth);
  if (member.kind === 'dimension') {
    referencedCubes(model, member.latitude, into, depth);
    referencedCubes(model, member.longitude, into, depth);
  }
  if (member.kind === 'dimension' && member.case) {
    for (const when of member.case.when) {
      referencedCubes(model, when.sql, into, depth);
      if (typeof when.label !== 'string') referencedCubes(model, when.label, into, depth);
    }
    if (member.case.else !== undefined && typeof member.case.else !== 'string') referencedCubes(model, member.case.else, into, depth);
  }
}
