import { stringify } from 'yaml';
import { columnDimensionType, columnMeasures, escapeJinja, memberName, relationOf, sqlIdentifier } from './members.js';
import { DbtProjectError, GENERATED_DIRECTORY, type DbtColumn, type DbtModel, type DbtProject, type GeneratedModel } from './types.js';

/**
 * One cube per enabled, non-ephemeral model, each in its own file under model/dbt/. The output
 * depends only on the project (members, joins and keys sorted), so an unchanged project syncs to
 * byte-identical files.
 */
export function generateCubes(project: DbtProject): GeneratedModel {
  const skipped: GeneratedModel['skipped'] = [];
  const warnings: string[] = [];
  const files = new Map<string, string>();
  const cubeModels = new Map<string, string>();
  const models = [...project.models].sort((a, b) => compare(a.name, b.name));
  for (const model of models) {
    if (!model.enabled) skipped.push({ model: model.name, reason: 'disabled' });
    else if (model.materialized === 'ephemeral') skipped.push({ model: model.name, reason: 'ephemeral' });
  }
  const generated = models.filter((m) => m.enabled && m.materialized !== 'ephemeral');
  for (const model of generated) {
    const name = memberName(model.name);
    const earlier = cubeModels.get(name);
    if (earlier !== undefined) {
      throw new DbtProjectError(
        `Models "${earlier}" and "${model.name}" would both be cube "${name}"; rename one of them`,
        model.path || null,
      );
    }
    cubeModels.set(name, model.name);
    const cube = cubeOf(model, name, warnings);
    const text = stringify({ cubes: [cube] }, { lineWidth: 0, minContentWidth: 0 });
    files.set(`${GENERATED_DIRECTORY}/${name}.yml`, escapeJinja(text));
  }
  return {
    files: new Map([...files].sort(([a], [b]) => compare(a, b))),
    cubes: [...cubeModels.keys()].sort(compare),
    skipped,
    warnings,
  };
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

type Obj = Record<string, unknown>;

/** The cube of one model, as the object written to YAML (keys in the order Cube's docs show them). */
export function cubeOf(model: DbtModel, name: string, warnings: string[]): Obj {
  const dimensions: Obj[] = [];
  const measures: Obj[] = [];
  const joins = new Map<string, Obj>();
  const taken = new Map<string, string>();
  const claim = (member: string, what: string, column: DbtColumn | null): boolean => {
    const earlier = taken.get(member);
    if (earlier === undefined) {
      taken.set(member, what);
      return true;
    }
    if (column === null) return false;
    throw new DbtProjectError(
      `Model "${model.name}", column "${column.name}": ${what} would be named "${member}" like ${earlier}`,
      model.path || null,
    );
  };
  const keys = primaryKeys(model, warnings);

  for (const column of model.columns) {
    const dimension = memberName(column.name);
    claim(dimension, `the dimension of column "${column.name}"`, column);
    dimensions.push(
      compact({
        name: dimension,
        sql: columnSql(column.name),
        type: columnDimensionType(column),
        primary_key: keys.has(column.name) ? true : undefined,
        description: column.description ?? undefined,
        meta: metaOf(column.meta, ['measures']),
      }),
    );
  }
  for (const column of model.columns) {
    for (const measure of columnMeasures(model, column)) {
      claim(measure.name, `measure "${measure.name}"`, column);
      measures.push(
        compact({
          name: measure.name,
          sql: columnSql(column.name),
          type: measure.type,
          title: measure.title,
          description: measure.description,
        }),
      );
    }
  }
  // The row count every cube has; a column or measure already called `count` keeps its name.
  const count = ['count', 'row_count', 'rows_count'].find((candidate) => claim(candidate, 'the count measure', null));
  if (count !== undefined) measures.push({ name: count, type: 'count' });

  for (const column of model.columns) {
    for (const test of column.tests) {
      if (test.kind !== 'relationships') continue;
      const target = memberName(test.to);
      if (test.to === model.name) {
        warnings.push(`Model "${model.name}", column "${column.name}": a relationship to the model itself is not a join`);
        continue;
      }
      if (joins.has(target)) {
        warnings.push(
          `Model "${model.name}", column "${column.name}": a second relationship to "${test.to}" is not a join (a cube joins another once)`,
        );
        continue;
      }
      joins.set(target, {
        name: target,
        relationship: 'many_to_one',
        sql: `{CUBE}.${sqlIdentifier(column.name)} = {${target}}.${sqlIdentifier(test.field)}`,
      });
    }
  }

  return compact({
    name,
    sql_table: relationOf(model),
    description: model.description ?? undefined,
    meta: metaOf(model.meta, []),
    joins: joins.size > 0 ? [...joins.values()].sort(byName) : undefined,
    dimensions: dimensions.length > 0 ? dimensions.sort(byName) : undefined,
    measures: measures.sort(byName),
  });
}

/**
 * Primary key columns: those tagged `primary_key`, else one column with both `unique` and
 * `not_null` tests (the first declared; a cube has one primary key, so others are reported).
 */
function primaryKeys(model: DbtModel, warnings: string[]): Set<string> {
  const tagged = model.columns.filter((c) => c.tags.includes('primary_key'));
  if (tagged.length > 0) return new Set(tagged.map((c) => c.name));
  const tested = model.columns.filter((c) => c.tests.some((t) => t.kind === 'unique') && c.tests.some((t) => t.kind === 'not_null'));
  if (tested.length > 1) {
    warnings.push(
      `Model "${model.name}": columns ${tested.map((c) => `"${c.name}"`).join(', ')} are all unique and not null; "${tested[0]!.name}" is the primary key (tag a column primary_key to choose)`,
    );
  }
  return new Set(tested.slice(0, 1).map((c) => c.name));
}

function columnSql(column: string): string {
  const sql = sqlIdentifier(column);
  return sql === column ? column : `{CUBE}.${sql}`;
}

/** Meta as written: keys sorted at every depth so the file does not depend on the project's key order. */
function metaOf(meta: Record<string, unknown>, without: string[]): Obj | undefined {
  const entries = Object.entries(meta).filter(([k, v]) => !without.includes(k) && v !== undefined);
  return entries.length === 0 ? undefined : (sortKeys(Object.fromEntries(entries)) as Obj);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, sortKeys(v)]),
  );
}

function compact(object: Obj): Obj {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}

function byName(a: Obj, b: Obj): number {
  const x = String(a['name']);
  const y = String(b['name']);
  return x < y ? -1 : x > y ? 1 : 0;
}
