import { duckdbDialect } from '../dialects/duckdb.js';
import type { Cube, DataModel, Member, PreAggregation, SqlTemplate, TemplateRef } from '../model.js';
import { rollupBuildPlan } from './build.js';
import { MEASURE_PARTS, memberAt } from './definitions.js';
import { rollsUpInto } from './granularity.js';

export interface RollupProblem {
  readonly cube: string;
  readonly name: string;
  readonly message: string;
}

function memberTemplates(member: Member): SqlTemplate[] {
  const templates: SqlTemplate[] = [];
  if (member.sql) templates.push(member.sql);
  if (member.kind === 'measure') templates.push(...member.filters);
  if (member.kind === 'dimension') {
    for (const when of member.case?.when ?? []) templates.push(when.sql, ...(typeof when.label === 'string' ? [] : [when.label]));
    if (member.case?.else !== undefined && typeof member.case.else !== 'string') templates.push(member.case.else);
    if (member.latitude) templates.push(member.latitude);
    if (member.longitude) templates.push(member.longitude);
  }
  return templates;
}

/**
 * Whether the rows a member reads depend on who asks (`SECURITY_CONTEXT`): a rollup is built once for
 * everyone, so it could not give each caller their own answer. `FILTER_PARAMS` only narrow rows the
 * query's own filters remove anyway, so they do not count.
 */
function callerDependent(model: DataModel, templates: readonly SqlTemplate[], seen = new Set<SqlTemplate>()): boolean {
  for (const template of templates) {
    if (seen.has(template)) continue;
    seen.add(template);
    for (const part of template.parts as ReadonlyArray<string | TemplateRef>) {
      if (typeof part === 'string') continue;
      if (part.kind === 'securityValue' || part.kind === 'securityFilter') return true;
      if (part.kind === 'cube') {
        const cube = model.cubes.get(part.cube);
        if (cube?.sql && callerDependent(model, [cube.sql], seen)) return true;
      }
      if (part.kind === 'member') {
        const owner = model.cubes.get(part.cube);
        const member = owner?.measures.get(part.member) ?? owner?.dimensions.get(part.member) ?? owner?.segments.get(part.member);
        if (member && callerDependent(model, memberTemplates(member), seen)) return true;
      }
    }
  }
  return false;
}

function problemsOf(model: DataModel, cube: Cube, pre: PreAggregation): string[] {
  const problems: string[] = [];
  const id = `${cube.name}.${pre.name}`;
  if (pre.type === 'original_sql') {
    if (pre.measures.length + pre.dimensions.length + pre.segments.length > 0 || pre.timeDimension) {
      problems.push(
        "an original_sql pre-aggregation stores the cube's SQL rows as they are; measures, dimensions, segments and time_dimension belong to a rollup",
      );
    }
    if (cube.sql && callerDependent(model, [cube.sql]))
      problems.push("the cube's SQL depends on the caller's security context, and a pre-aggregation is built once for everyone");
    return problems;
  }
  if (pre.type === 'rollup_join') {
    if (!pre.rollups || pre.rollups.length < 2) problems.push('a rollup_join needs `rollups`, the rollups of the cubes it joins');
    for (const rollup of pre.rollups ?? []) {
      const [owner = '', name = ''] = rollup.split('.');
      const target = model.cubes.get(owner)?.preAggregations.get(name);
      if (!target) problems.push(`rollups names ${rollup}, which is not a pre-aggregation`);
      else if (target.type !== 'rollup') problems.push(`rollups names ${rollup}, which is of type ${target.type}, not rollup`);
    }
  } else if (pre.rollups) {
    problems.push('`rollups` belongs to a rollup_join');
  }
  if (pre.measures.length + pre.dimensions.length + pre.segments.length === 0 && !pre.timeDimension) {
    problems.push('it names no measures, dimensions, segments or time_dimension, so it would store nothing');
  }
  if (pre.timeDimension && !pre.granularity) problems.push('time_dimension needs a granularity');
  if (pre.granularity && !pre.timeDimension) problems.push('granularity needs a time_dimension');
  if (pre.partitionGranularity && !pre.timeDimension) problems.push('partition_granularity needs a time_dimension');
  if (pre.partitionGranularity && pre.granularity && !rollsUpInto(pre.granularity, pre.partitionGranularity)) {
    problems.push(
      `partition_granularity ${pre.partitionGranularity} does not hold whole ${pre.granularity} buckets, so a bucket would be split between partitions`,
    );
  }
  if (pre.refreshKey?.incremental && !pre.partitionGranularity)
    problems.push('refresh_key.incremental refreshes partitions, so it needs partition_granularity');
  if (pre.refreshKey?.updateWindow && !pre.refreshKey.incremental)
    problems.push('refresh_key.update_window applies to incremental refreshes only');
  if ((pre.buildRangeStart || pre.buildRangeEnd) && !pre.timeDimension)
    problems.push('build_range_start and build_range_end need a time_dimension');
  if (pre.timeDimension) {
    const time = memberAt(model, pre.timeDimension);
    if (time?.kind === 'dimension' && time.type !== 'time')
      problems.push(`time_dimension ${pre.timeDimension} is of type ${time.type}, not time`);
  }
  for (const path of pre.measures) {
    const measure = memberAt(model, path);
    if (measure?.kind !== 'measure') continue;
    if (measure.rollingWindow) problems.push(`measure ${path} has a rolling window, which a rollup cannot store`);
    else if (!MEASURE_PARTS[measure.type]) {
      problems.push(
        `measure ${path} is of type ${measure.type}; a rollup stores count, sum, avg, min, max, count_distinct and count_distinct_approx measures (list the measures it is computed from instead)`,
      );
    }
  }
  for (const path of pre.dimensions) {
    const dimension = memberAt(model, path);
    if (dimension?.kind === 'dimension' && dimension.subQuery)
      problems.push(`dimension ${path} is a sub_query dimension, which a rollup cannot store`);
  }
  const used = [...pre.measures, ...pre.dimensions, ...pre.segments, ...(pre.timeDimension ? [pre.timeDimension] : [])];
  const templates = used.flatMap((path) => {
    const [owner = '', name = ''] = path.split('.');
    const ownerCube = model.cubes.get(owner);
    const member = ownerCube?.measures.get(name) ?? ownerCube?.dimensions.get(name) ?? ownerCube?.segments.get(name);
    return [...(member ? memberTemplates(member) : []), ...(ownerCube?.sql ? [ownerCube.sql] : [])];
  });
  if (callerDependent(model, templates)) {
    problems.push("its members read the caller's security context, and a rollup is built once for everyone");
  }
  if (problems.length === 0) {
    try {
      rollupBuildPlan(model, id, duckdbDialect);
    } catch (error) {
      problems.push(`it cannot be built: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}

/** Every reason a pre-aggregation of the model cannot be honoured exactly. */
export function rollupProblems(model: DataModel): RollupProblem[] {
  return [...model.cubes.values()].flatMap((cube) =>
    [...cube.preAggregations.values()].flatMap((pre) =>
      problemsOf(model, cube, pre).map((message) => ({ cube: cube.name, name: pre.name, message })),
    ),
  );
}
