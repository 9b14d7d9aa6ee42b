import { DIMENSION_TYPES, MEASURE_TYPES } from '../model.js';
import type { Diagnostics } from './diagnostics.js';
import type { DraftCube, DraftJoin, DraftMember } from './draft.js';
import { isObj, isPublic, NAME, namedList, pick, str, stringList, type Obj } from './fields.js';
import { readGeo, readRollingWindow } from './member-features.js';
import { parseTemplate, type RawTemplate } from './template.js';
import { snakeCase } from './keywords.js';
import type { RawEntry } from './yaml-files.js';

const RELATIONSHIPS: Record<string, DraftJoin['relationship']> = {
  many_to_one: 'many_to_one',
  belongs_to: 'many_to_one',
  belongsTo: 'many_to_one',
  manyToOne: 'many_to_one',
  one_to_many: 'one_to_many',
  has_many: 'one_to_many',
  hasMany: 'one_to_many',
  oneToMany: 'one_to_many',
  one_to_one: 'one_to_one',
  has_one: 'one_to_one',
  hasOne: 'one_to_one',
  oneToOne: 'one_to_one',
};

// Every measure type reads a column or an expression except `count`, which can count rows.
const AGGREGATES_NEEDING_SQL: ReadonlySet<string> = new Set(MEASURE_TYPES.filter((type) => type !== 'count'));

/** Reads one `cubes:` entry; every problem goes to diagnostics and the cube is still returned when usable. */
export function readCube(entry: RawEntry, diagnostics: Diagnostics): DraftCube | undefined {
  const v = entry.value;
  const file = entry.fileName;
  const name = str(v['name']);
  if (!name || !NAME.test(name)) {
    diagnostics.error(
      file,
      name ? `Cube name '${name}' must be letters, digits and underscores` : 'A cube needs a `name`',
      entry.locate([]),
    );
    return undefined;
  }
  const sqlTable = str(pick(v, 'sql_table'));
  const sqlText = str(v['sql']);
  if (!sqlTable && !sqlText) {
    diagnostics.error(file, `Cube ${name} needs \`sql_table\` or \`sql\``, entry.locate([]));
  } else if (sqlTable && sqlText) {
    // As in Cube: one of them would otherwise be ignored.
    diagnostics.error(file, `Cube ${name} has both \`sql_table\` and \`sql\`; use one`, entry.locate([]));
  }
  const members: DraftMember[] = [];
  for (const [key, kind] of [
    ['measures', 'measure'],
    ['dimensions', 'dimension'],
    ['segments', 'segment'],
  ] as const) {
    for (const item of namedList(v[key])) {
      const member = readMember(name, kind, item.name, item.value, entry.locate([key, item.index]), file, diagnostics);
      if (member) members.push(member);
    }
  }
  const joins: DraftJoin[] = [];
  for (const item of namedList(v['joins'])) {
    const at = entry.locate(['joins', item.index]);
    if (!item.name) {
      diagnostics.error(file, `A join of cube ${name} needs a \`name\` (the cube to join)`, at);
      continue;
    }
    const relationship = RELATIONSHIPS[str(item.value['relationship']) ?? ''];
    if (!relationship) {
      diagnostics.error(
        file,
        `Join ${name} → ${item.name} has unknown relationship '${str(item.value['relationship']) ?? ''}': expected many_to_one, one_to_many or one_to_one (or belongs_to, has_many, has_one)`,
        at,
      );
      continue;
    }
    const joinSql = str(item.value['sql']);
    if (!joinSql) diagnostics.error(file, `Join ${name} → ${item.name} needs \`sql\``, at);
    joins.push({ to: item.name, relationship, sql: joinSql ? parseTemplate(joinSql) : undefined, at });
  }
  const preAggregations = namedList(pick(v, 'pre_aggregations')).map((item) => ({
    name: item.name ?? '',
    value: item.value,
    at: entry.locate(['pre_aggregations', item.index]),
  }));
  return {
    name,
    fileName: file,
    at: entry.locate([]),
    title: str(v['title']),
    description: str(v['description']),
    public: isPublic(v),
    meta: v['meta'],
    sqlTable,
    sql: sqlText ? parseTemplate(sqlText) : undefined,
    members,
    joins,
    accessPolicy: pick(v, 'access_policy'),
    hierarchies: v['hierarchies'],
    preAggregations,
    refreshKey: pick(v, 'refresh_key'),
    locate: entry.locate,
  };
}

function readMember(
  cube: string,
  kind: DraftMember['kind'],
  name: string | undefined,
  v: Obj,
  at: DraftMember['at'],
  file: string,
  diagnostics: Diagnostics,
): DraftMember | undefined {
  if (!name || !NAME.test(name)) {
    diagnostics.error(
      file,
      name
        ? `${kind} name '${name}' in cube ${cube} must be letters, digits and underscores`
        : `A ${kind} of cube ${cube} needs a \`name\``,
      at,
    );
    return undefined;
  }
  const path = `${cube}.${name}`;
  const primaryKey = kind === 'dimension' && pick(v, 'primary_key') === true;
  // Cube's JavaScript spelling of types is camelCase (`countDistinct`); YAML's is snake_case.
  const declaredType = snakeCase(str(v['type']) ?? '');
  const where = { path, file, at, diagnostics };
  const rolling = kind === 'measure' ? readRollingWindow(v, declaredType, where) : undefined;
  const type = kind === 'segment' ? 'boolean' : (rolling?.type ?? declaredType);
  const allowed: readonly string[] = kind === 'measure' ? MEASURE_TYPES : DIMENSION_TYPES;
  if (kind !== 'segment' && !allowed.includes(type)) {
    diagnostics.error(
      file,
      type
        ? `Unknown ${kind} type '${type}' for ${path}: expected one of ${allowed.join(', ')}`
        : `${kind === 'measure' ? 'Measure' : 'Dimension'} ${path} needs a \`type\` (one of ${allowed.join(', ')})`,
      at,
    );
  }
  if (kind === 'dimension' && v['propagate_filters_to_sub_query'] === true && v['sub_query'] !== true) {
    diagnostics.error(file, `${path} has propagate_filters_to_sub_query but no \`sub_query: true\`, without which it does nothing`, at);
  }
  if (v['format'] !== undefined && typeof v['format'] !== 'string') {
    diagnostics.error(file, `${path}: a \`format\` given as a mapping (a link with a label) is not supported by Plinth yet`, at);
  }
  const sqlText = str(v['sql']);
  const caseWhen = kind === 'dimension' ? readCase(v['case'], path, file, at, diagnostics) : undefined;
  const geo = kind === 'dimension' ? readGeo(v, type, where) : {};
  const needsSql = kind === 'measure' ? AGGREGATES_NEEDING_SQL.has(type) : !caseWhen && type !== 'geo';
  if (!sqlText && needsSql) diagnostics.error(file, `${path} of type ${type} needs \`sql\``, at);
  const filters: RawTemplate[] = [];
  if (v['filters'] !== undefined) {
    if (kind !== 'measure' || !Array.isArray(v['filters'])) {
      diagnostics.error(file, `\`filters\` of ${path} must be a list of {sql: ...} on a measure`, at);
    } else {
      for (const f of v['filters'] as unknown[]) {
        const fsql = isObj(f) ? str(f['sql']) : undefined;
        if (fsql) filters.push(parseTemplate(fsql));
        else diagnostics.error(file, `Each filter of ${path} needs \`sql\``, at);
      }
    }
  }
  // As in Cube, a bare column name belongs to the member's own cube, so joins cannot make it ambiguous.
  const sql =
    sqlText === undefined
      ? undefined
      : parseTemplate(/^[A-Za-z_][A-Za-z0-9_]*$/.test(sqlText.trim()) ? `{CUBE}.${sqlText.trim()}` : sqlText);
  return {
    kind,
    name,
    type,
    sql,
    filters,
    caseWhen,
    primaryKey,
    title: str(v['title']),
    description: str(v['description']),
    public: isPublic(v, !primaryKey),
    meta: v['meta'],
    format: str(v['format']),
    drillMembers: kind === 'measure' ? readDrillMembers(v['drill_members'], path, file, at, diagnostics) : undefined,
    ...(rolling?.rollingWindow ? { rollingWindow: rolling.rollingWindow } : {}),
    ...geo,
    ...(kind === 'dimension' && v['sub_query'] === true ? { subQuery: true } : {}),
    ...(kind === 'dimension' && v['propagate_filters_to_sub_query'] === true ? { propagateFiltersToSubQuery: true } : {}),
    at,
  };
}

function readDrillMembers(v: unknown, path: string, file: string, at: DraftMember['at'], diagnostics: Diagnostics): string[] | undefined {
  if (v === undefined) return undefined;
  const names = stringList(v);
  if (!names) diagnostics.error(file, `\`drill_members\` of ${path} must be a list of member names`, at);
  return names;
}

function readCase(v: unknown, path: string, file: string, at: DraftMember['at'], diagnostics: Diagnostics): DraftMember['caseWhen'] {
  if (v === undefined) return undefined;
  const when = isObj(v) && Array.isArray(v['when']) ? (v['when'] as unknown[]) : undefined;
  if (!isObj(v) || !when) {
    diagnostics.error(file, `\`case\` of ${path} needs a \`when\` list`, at);
    return undefined;
  }
  const label = (l: unknown): string | RawTemplate | undefined => {
    if (isObj(l) && str(l['sql'])) return parseTemplate(str(l['sql']) ?? '');
    return str(l);
  };
  const branches: Array<{ sql: RawTemplate; label: string | RawTemplate }> = [];
  for (const w of when) {
    const sql = isObj(w) ? str(w['sql']) : undefined;
    const l = isObj(w) ? label(w['label']) : undefined;
    if (!sql || l === undefined) diagnostics.error(file, `Each \`when\` of ${path} needs \`sql\` and \`label\``, at);
    else branches.push({ sql: parseTemplate(sql), label: l });
  }
  const elseLabel = isObj(v['else']) ? label(v['else']['label']) : undefined;
  return elseLabel === undefined ? { when: branches } : { when: branches, else: elseLabel };
}
