import type { Cube, PreAggregation, PreAggregationGranularity, RefreshKey, SqlTemplate } from '../model.js';
import { GRANULARITIES } from './check-cubes.js';
import type { Diagnostics, Location } from './diagnostics.js';
import type { DraftCube } from './draft.js';
import { isObj, namedList, pick, str, stringList, type Obj } from './fields.js';
import { parseEvery, parseInterval } from './intervals.js';
import { findMember } from './link-cubes.js';
import { parseTemplate, resolveTemplate, type NameSpace } from './template.js';

const TYPES: Record<string, PreAggregation['type'] | undefined> = {
  rollup: 'rollup',
  original_sql: 'original_sql',
  originalSql: 'original_sql',
  rollup_join: 'rollup_join',
  rollupJoin: 'rollup_join',
};

interface Reader {
  readonly cube: string;
  readonly where: string;
  readonly fileName: string;
  readonly at?: Location;
  readonly cubes: ReadonlyMap<string, Cube>;
  readonly names: NameSpace;
  readonly diagnostics: Diagnostics;
}

function problem(reader: Reader, message: string): void {
  reader.diagnostics.error(reader.fileName, `${reader.where}: ${message}`, reader.at);
}

/** `member`, `CUBE.member`, `other.member`, `{CUBE.member}` or `${CUBE.member}` to `cube.member`. */
function memberPath(reader: Reader, written: string, kind: 'measure' | 'dimension' | 'segment', list: string): string | undefined {
  const bare = written.replace(/^\$?\{\s*(.*?)\s*\}$/, '$1').trim();
  const parts = bare.split('.');
  const [cube, member] =
    parts.length === 1 ? [reader.cube, parts[0] ?? ''] : [parts[0] === 'CUBE' ? reader.cube : (parts[0] ?? ''), parts[1] ?? ''];
  if (parts.length > 2 || !reader.cubes.has(cube)) {
    problem(reader, `${list} names ${written}, which is not a member of a cube`);
    return undefined;
  }
  const found = findMember(reader.cubes, cube, member);
  if (!found) {
    reader.diagnostics.error(reader.fileName, `${reader.where} references ${cube}.${member} (in ${list}), which does not exist`, reader.at);
    return undefined;
  }
  if (found.kind !== kind) {
    problem(reader, `${list} names ${cube}.${member}, which is a ${found.kind}, not a ${kind}`);
    return undefined;
  }
  return found.path;
}

function members(reader: Reader, value: Obj, keys: readonly string[], kind: 'measure' | 'dimension' | 'segment'): string[] {
  const key = keys.find((name) => pick(value, name) !== undefined);
  if (key === undefined) return [];
  const raw = pick(value, key);
  const list = stringList(raw);
  if (!list) {
    problem(reader, `${key} must be a list of member names`);
    return [];
  }
  return list.flatMap((written) => memberPath(reader, written, kind, key) ?? []);
}

function granularity(reader: Reader, value: Obj, key: string): PreAggregationGranularity | undefined {
  const written = str(pick(value, key));
  if (written === undefined) return undefined;
  if (!(GRANULARITIES as readonly string[]).includes(written)) {
    problem(reader, `${key} '${written}' is not one of ${GRANULARITIES.join(', ')}`);
    return undefined;
  }
  return written as PreAggregationGranularity;
}

function sqlOf(reader: Reader, value: unknown, key: string): SqlTemplate | undefined {
  if (value === undefined) return undefined;
  const text = isObj(value) ? str(pick(value, 'sql')) : undefined;
  if (text === undefined) {
    problem(reader, `${key} must be written as {sql: ...}`);
    return undefined;
  }
  const { template, problems } = resolveTemplate(parseTemplate(text), reader.cube, reader.names);
  for (const message of problems) problem(reader, `${key}: ${message}`);
  return template;
}

/** A cube's or pre-aggregation's `refresh_key`; `legacy` holds `incremental`/`update_window` written beside it. */
export function readRefreshKey(reader: Reader, value: unknown, legacy: Obj = {}): RefreshKey | undefined {
  if (value === undefined && pick(legacy, 'incremental') === undefined && pick(legacy, 'update_window') === undefined) return undefined;
  if (value !== undefined && !isObj(value)) {
    problem(reader, 'refresh_key must be a mapping of every, sql, incremental and update_window');
    return undefined;
  }
  const key: Obj = { ...legacy, ...(value ?? {}) };
  for (const name of Object.keys(key)) {
    if (!['every', 'sql', 'incremental', 'update_window', 'updateWindow'].includes(name)) {
      problem(reader, `refresh_key.${name} is not a refresh key option (every, sql, incremental, update_window)`);
    }
  }
  const every = str(pick(key, 'every'));
  const parsedEvery = every === undefined ? undefined : parseEvery(every);
  if (parsedEvery?.kind === 'invalid')
    problem(reader, `refresh_key.every '${every}' is neither an interval such as '1 hour' nor a cron string`);
  const sqlText = str(pick(key, 'sql'));
  let sql: SqlTemplate | undefined;
  if (sqlText !== undefined) {
    const resolved = resolveTemplate(parseTemplate(sqlText), reader.cube, reader.names);
    for (const message of resolved.problems) problem(reader, `refresh_key.sql: ${message}`);
    sql = resolved.template;
  }
  const incrementalValue = pick(key, 'incremental');
  if (incrementalValue !== undefined && typeof incrementalValue !== 'boolean')
    problem(reader, 'refresh_key.incremental must be true or false');
  const updateWindow = str(pick(key, 'update_window'));
  const updateWindowSeconds = updateWindow === undefined ? undefined : parseInterval(updateWindow);
  if (updateWindow !== undefined && updateWindowSeconds === undefined) {
    problem(reader, `refresh_key.update_window '${updateWindow}' is not an interval such as '7 day'`);
  }
  return {
    ...(every !== undefined ? { every } : {}),
    ...(parsedEvery?.kind === 'interval' ? { everySeconds: parsedEvery.seconds } : {}),
    ...(sql ? { sql } : {}),
    incremental: incrementalValue === true,
    ...(updateWindow !== undefined ? { updateWindow } : {}),
    ...(updateWindowSeconds !== undefined ? { updateWindowSeconds } : {}),
  };
}

function indexes(reader: Reader, value: unknown, dimensions: readonly string[]): PreAggregation['indexes'] {
  return namedList(value).flatMap((index) => {
    const columns = stringList(pick(index.value, 'columns'));
    if (!index.name || !columns) {
      problem(reader, 'each index needs a name and a list of columns');
      return [];
    }
    const paths = columns.flatMap((column) => memberPath(reader, column, 'dimension', `indexes.${index.name}.columns`) ?? []);
    for (const path of paths) {
      if (!dimensions.includes(path)) problem(reader, `index ${index.name} names ${path}, which is not one of its dimensions`);
    }
    return [{ name: index.name, columns: paths }];
  });
}

function booleanOption(reader: Reader, value: Obj, key: string, fallback: boolean): boolean {
  const written = pick(value, key);
  if (written === undefined) return fallback;
  if (typeof written !== 'boolean') problem(reader, `${key} must be true or false`);
  return written === true;
}

function readOne(reader: Reader, value: Obj): PreAggregation | undefined {
  const writtenType = str(pick(value, 'type')) ?? 'rollup';
  const type = TYPES[writtenType];
  if (!type) {
    problem(reader, `type ${writtenType} is not supported by Plinth (rollup, original_sql and rollup_join are)`);
    return undefined;
  }
  const measures = members(reader, value, ['measures', 'measure_references'], 'measure');
  const dimensions = members(reader, value, ['dimensions', 'dimension_references'], 'dimension');
  const segments = members(reader, value, ['segments', 'segment_references'], 'segment');
  const timeDimensions = members(reader, value, ['time_dimension', 'time_dimension_reference'], 'dimension');
  const timeDimension = timeDimensions[0];
  const rollups = stringList(pick(value, 'rollups') ?? pick(value, 'rollup_references'));
  return {
    cube: reader.cube,
    name: '',
    type,
    measures,
    dimensions,
    segments,
    ...(timeDimension !== undefined ? { timeDimension } : {}),
    ...optional('granularity', granularity(reader, value, 'granularity')),
    ...optional('partitionGranularity', granularity(reader, value, 'partition_granularity')),
    ...optional('refreshKey', readRefreshKey(reader, pick(value, 'refresh_key'), legacyRefresh(value))),
    ...optional(
      'buildRangeStart',
      sqlOf(reader, pick(value, 'build_range_start') ?? pick(value, 'refresh_range_start'), 'build_range_start'),
    ),
    ...optional('buildRangeEnd', sqlOf(reader, pick(value, 'build_range_end') ?? pick(value, 'refresh_range_end'), 'build_range_end')),
    indexes: indexes(reader, pick(value, 'indexes'), dimensions),
    allowNonStrictDateRangeMatch: booleanOption(reader, value, 'allow_non_strict_date_range_match', false),
    external: booleanOption(reader, value, 'external', true),
    ...(rollups ? { rollups: rollups.map((id) => rollupId(reader.cube, id)) } : {}),
  };
}

/** `name`, `CUBE.name` or `cube.name` (bare or in braces) to `cube.name`. */
function rollupId(cube: string, written: string): string {
  const bare = written.replace(/^\$?\{\s*(.*?)\s*\}$/, '$1').replace(/^CUBE\./, `${cube}.`);
  return bare.includes('.') ? bare : `${cube}.${bare}`;
}

function legacyRefresh(value: Obj): Obj {
  const legacy: Obj = {};
  if (pick(value, 'incremental') !== undefined) legacy['incremental'] = pick(value, 'incremental');
  if (pick(value, 'update_window') !== undefined) legacy['update_window'] = pick(value, 'update_window');
  return legacy;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/**
 * Reads each cube's `pre_aggregations` and `refresh_key` once every cube is linked (a pre-aggregation
 * may name members of joined cubes) and returns the cubes with them attached.
 */
export function attachPreAggregations(
  drafts: readonly DraftCube[],
  cubes: ReadonlyMap<string, Cube>,
  names: NameSpace,
  diagnostics: Diagnostics,
): Map<string, Cube> {
  const byName = new Map(drafts.map((draft) => [draft.name, draft]));
  const result = new Map<string, Cube>();
  for (const [cubeName, cube] of cubes) {
    const draft = byName.get(cubeName);
    const preAggregations = new Map<string, PreAggregation>();
    for (const entry of draft?.preAggregations ?? []) {
      if (!entry.name) {
        diagnostics.error(cube.fileName, `A pre-aggregation of cube ${cubeName} needs a \`name\``, entry.at);
        continue;
      }
      const reader: Reader = {
        cube: cubeName,
        where: `Pre-aggregation ${cubeName}.${entry.name}`,
        fileName: cube.fileName,
        ...(entry.at ? { at: entry.at } : {}),
        cubes,
        names,
        diagnostics,
      };
      const read = readOne(reader, entry.value);
      if (read) preAggregations.set(entry.name, { ...read, name: entry.name });
    }
    const cubeRefreshKey = draft
      ? readRefreshKey(
          {
            cube: cubeName,
            where: `Cube ${cubeName}`,
            fileName: cube.fileName,
            ...(draft.at ? { at: draft.at } : {}),
            cubes,
            names,
            diagnostics,
          },
          draft.refreshKey,
        )
      : undefined;
    result.set(cubeName, { ...cube, preAggregations, ...(cubeRefreshKey ? { refreshKey: cubeRefreshKey } : {}) });
  }
  return result;
}
