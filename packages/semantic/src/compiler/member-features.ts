import { WINDOW_UNITS, type RollingWindow, type WindowBound, type WindowUnit } from '../model.js';
import type { Diagnostics, Location } from './diagnostics.js';
import { isObj, pick, str, type Obj } from './fields.js';
import { parseTemplate, type RawTemplate } from './template.js';

/** Aggregates a window can be computed for; calculated measures (`number`, …) have no rows of their own to window. */
const WINDOWABLE = new Set(['count', 'count_distinct', 'count_distinct_approx', 'sum', 'avg', 'min', 'max']);
const WINDOW_KEYS = new Set(['trailing', 'leading', 'offset', 'type', 'granularity']);
/** Cube's interval syntax: `7 day`, `2 weeks`, `-1 month`. */
const INTERVAL = new RegExp(`^(-?\\d+)\\s+(${WINDOW_UNITS.join('|')})s?$`);
/** Cube's deprecated spellings of `type: to_date`. */
const LEGACY_TO_DATE: Record<string, WindowUnit> = { year_to_date: 'year', quarter_to_date: 'quarter', month_to_date: 'month' };

interface Where {
  readonly path: string;
  readonly file: string;
  readonly at?: Location;
  readonly diagnostics: Diagnostics;
}

function readBound(raw: unknown, side: string, where: Where): WindowBound | undefined {
  if (raw === undefined || raw === null) return undefined;
  const text = str(raw)?.trim() ?? '';
  if (text === 'unbounded') return 'unbounded';
  const match = INTERVAL.exec(text);
  if (!match) {
    where.diagnostics.error(
      where.file,
      `\`rolling_window.${side}\` of ${where.path} must be an interval such as \`7 day\` or \`unbounded\`, not '${text}'`,
      where.at,
    );
    return undefined;
  }
  return { count: Number(match[1]), unit: match[2] as WindowUnit };
}

/**
 * Reads `rolling_window` of a measure, and turns `type: running_total` into a sum with a running-total
 * window. Returns the measure type to use and the window, if any.
 */
export function readRollingWindow(v: Obj, type: string, where: Where): { type: string; rollingWindow?: RollingWindow } {
  const raw = pick(v, 'rolling_window');
  if (type === 'running_total' || type === 'runningTotal') {
    if (raw !== undefined)
      where.diagnostics.error(where.file, `${where.path} is a running_total and cannot have a \`rolling_window\` too`, where.at);
    return { type: 'sum', rollingWindow: { kind: 'running_total' } };
  }
  if (raw === undefined || raw === null) return { type };
  const error = (message: string): { type: string } => {
    where.diagnostics.error(where.file, message, where.at);
    return { type };
  };
  if (!isObj(raw)) return error(`\`rolling_window\` of ${where.path} must be a mapping with trailing, leading, offset or type`);
  for (const key of Object.keys(raw)) {
    if (!WINDOW_KEYS.has(key)) return error(`\`rolling_window\` of ${where.path} has unknown key \`${key}\``);
  }
  if (!WINDOWABLE.has(type)) {
    return error(
      `${where.path} of type ${type} cannot have a \`rolling_window\`: only count, count_distinct, sum, avg, min and max measures can`,
    );
  }
  const windowType = str(raw['type']) ?? 'fixed';
  const legacy = LEGACY_TO_DATE[windowType];
  if (windowType === 'to_date' || legacy) {
    if (raw['trailing'] !== undefined || raw['leading'] !== undefined || raw['offset'] !== undefined)
      return error(`\`rolling_window\` of ${where.path} of type to_date takes only a \`granularity\`, not trailing, leading or offset`);
    const granularity = legacy ?? str(raw['granularity']);
    if (!granularity || !(WINDOW_UNITS as readonly string[]).includes(granularity))
      return error(`\`rolling_window\` of ${where.path} of type to_date needs a \`granularity\` (one of ${WINDOW_UNITS.join(', ')})`);
    return { type, rollingWindow: { kind: 'to_date', granularity: granularity as WindowUnit } };
  }
  if (windowType !== 'fixed')
    return error(`\`rolling_window\` of ${where.path} has unknown type '${windowType}': expected fixed or to_date`);
  if (raw['granularity'] !== undefined) return error(`\`rolling_window.granularity\` of ${where.path} needs \`type: to_date\``);
  const offset = str(raw['offset']) ?? 'end';
  if (offset !== 'start' && offset !== 'end')
    return error(`\`rolling_window.offset\` of ${where.path} must be start or end, not '${offset}'`);
  const trailing = readBound(raw['trailing'], 'trailing', where);
  const leading = readBound(raw['leading'], 'leading', where);
  return {
    type,
    rollingWindow: {
      kind: 'window',
      offset,
      ...(trailing !== undefined ? { trailing } : {}),
      ...(leading !== undefined ? { leading } : {}),
    },
  };
}

/** Reads `latitude: {sql}` and `longitude: {sql}`, which a `geo` dimension needs and no other may have. */
export function readGeo(v: Obj, type: string, where: Where): { latitude?: RawTemplate; longitude?: RawTemplate } {
  const side = (key: 'latitude' | 'longitude'): RawTemplate | undefined => {
    const raw = v[key];
    if (raw === undefined) {
      if (type === 'geo') where.diagnostics.error(where.file, `Geo dimension ${where.path} needs \`${key}: {sql: ...}\``, where.at);
      return undefined;
    }
    if (type !== 'geo') {
      where.diagnostics.error(where.file, `\`${key}\` of ${where.path} is only allowed on a dimension of type geo`, where.at);
      return undefined;
    }
    const sql = isObj(raw) ? str(raw['sql']) : undefined;
    const unknown = isObj(raw) ? Object.keys(raw).find((k) => k !== 'sql') : undefined;
    if (unknown !== undefined) {
      where.diagnostics.error(
        where.file,
        `\`${key}\` of geo dimension ${where.path} has unknown key \`${unknown}\` (expected sql)`,
        where.at,
      );
      return undefined;
    }
    if (!sql) {
      where.diagnostics.error(where.file, `\`${key}\` of geo dimension ${where.path} must be a mapping with \`sql\``, where.at);
      return undefined;
    }
    // As for `sql`, a bare column belongs to the dimension's own cube.
    return parseTemplate(/^[A-Za-z_][A-Za-z0-9_]*$/.test(sql.trim()) ? `{CUBE}.${sql.trim()}` : sql);
  };
  const latitude = side('latitude');
  const longitude = side('longitude');
  return { ...(latitude ? { latitude } : {}), ...(longitude ? { longitude } : {}) };
}
