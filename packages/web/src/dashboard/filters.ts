import { FILTER_OPERATORS } from '@plinth/embed/protocol';
import type { CubeQuery } from '../lib/data-api';
import type { ParamProblem } from '../lib/params';
import { stringOf, type Widget } from './model';

/**
 * The dashboard's active filters, by member (`view.dimension`): set by FILTER widgets and preset
 * by `?f_<view>.<dimension>=<JSON>` parameters (Cube's form: a value, or `{operator, values}`,
 * `equals` when the operator is omitted). A filter narrows the CHART widgets it targets: those a
 * FILTER widget's `config.targets` lists, else every chart whose query uses the member's view.
 */
export interface ActiveFilter {
  member: string;
  operator: string;
  values: string[];
  /** Widget ids; absent means every chart of the member's view. */
  targets?: string[];
}
export type FilterState = Readonly<Record<string, ActiveFilter>>;

// The operators of Cube's filters, as the embedding protocol lists them (the host's setFilters uses the same).
const OPERATORS: ReadonlySet<string> = new Set(FILTER_OPERATORS);

/** The filter a preset's value stands for, or why it stands for none. */
function presetOf(member: string, text: string): ActiveFilter | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // A bare word is the value itself; broken JSON of an object or a list is a mistake.
    if (/^\s*[[{]/.test(text)) return 'is not valid JSON';
    parsed = text;
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const { operator = 'equals', values } = parsed as { operator?: unknown; values?: unknown };
    if (typeof operator !== 'string' || !OPERATORS.has(operator)) return `has the unknown operator ${JSON.stringify(operator)}`;
    const list = Array.isArray(values) ? values.map(String) : values === undefined ? [] : [String(values)];
    return { member, operator, values: list };
  }
  const list = Array.isArray(parsed) ? parsed.map(String) : parsed === null ? [] : [String(parsed)];
  return { member, operator: 'equals', values: list };
}

const MEMBER = /^[A-Za-z_][\w]*\.[A-Za-z_][\w]*$/;

/**
 * The `f_` parameters of the URL: the filters they preset, and a problem naming each parameter
 * that could not be used (not `f_<view>.<dimension>`, broken JSON, an unknown operator).
 */
export function presetsFrom(search = new URLSearchParams(location.search)): {
  presets: ActiveFilter[];
  problems: ParamProblem[];
} {
  const presets: Record<string, ActiveFilter> = {};
  const problems: ParamProblem[] = [];
  for (const [name, value] of search) {
    if (!name.startsWith('f_')) continue;
    const member = name.slice(2);
    if (!MEMBER.test(member)) {
      problems.push({ parameter: name, message: 'is not a filter: name a member as f_<view>.<dimension>' });
      continue;
    }
    const preset = presetOf(member, value);
    if (typeof preset === 'string') problems.push({ parameter: name, message: `${preset}; the filter is not applied` });
    else presets[member] = preset;
  }
  return { presets: Object.values(presets), problems };
}

/** The host's filters (setFilters) the page can apply: on a `view.dimension` member, with an operator the page knows. */
export function hostFilters(filters: readonly { member: string; operator: string; values: readonly string[] }[]): ActiveFilter[] {
  const kept: Record<string, ActiveFilter> = {};
  for (const f of filters) {
    if (MEMBER.test(f.member) && OPERATORS.has(f.operator))
      kept[f.member] = { member: f.member, operator: f.operator, values: [...f.values] };
  }
  return Object.values(kept);
}

/**
 * A preset or the host's filter on a member a FILTER widget controls narrows what that widget
 * would: the charts its `targets` name, when it names some.
 */
export function withWidgetTargets(filters: ActiveFilter[], widgets: readonly Widget[]): ActiveFilter[] {
  const targetsOf = new Map<string, string[]>();
  for (const w of widgets) {
    if (w.type !== 'FILTER') continue;
    const { member, targets } = filterWidgetConfig(w);
    if (member && targets && !targetsOf.has(member)) targetsOf.set(member, targets);
  }
  return filters.map((f) => {
    const targets = f.targets ?? targetsOf.get(f.member);
    return targets ? { ...f, targets } : f;
  });
}

const viewOf = (member: string) => member.split('.')[0] ?? '';

function membersOf(query: CubeQuery): string[] {
  return [...(query.measures ?? []), ...(query.dimensions ?? []), ...(query.timeDimensions ?? []).map((t) => t.dimension)];
}

/** Whether a filter narrows a chart widget with this query. */
export function targets(filter: ActiveFilter, widgetId: string, query: CubeQuery): boolean {
  if (filter.targets) return filter.targets.includes(widgetId);
  const view = viewOf(filter.member);
  return membersOf(query).some((m) => viewOf(m) === view);
}

/** The query of a chart widget with the filters that target it (and a time grain override). */
export function filteredQuery(query: CubeQuery, widgetId: string, filters: FilterState, grain?: string): CubeQuery {
  const added = Object.values(filters)
    .filter((f) => (f.values.length > 0 || f.operator === 'set' || f.operator === 'notSet') && targets(f, widgetId, query))
    .map((f) => ({ member: f.member, operator: f.operator, ...(f.values.length ? { values: f.values } : {}) }));
  const timeDimensions = grain
    ? query.timeDimensions?.map((t) => (t.granularity ? { ...t, granularity: grain } : t))
    : query.timeDimensions;
  if (!added.length && timeDimensions === query.timeDimensions) return query;
  return { ...query, ...(timeDimensions ? { timeDimensions } : {}), filters: [...(query.filters ?? []), ...added] };
}

/** A FILTER widget's settings: `config.member` (or `dimension`), optional `options`, `targets`, `title`. */
export function filterWidgetConfig(widget: Widget) {
  const c = widget.config ?? {};
  const member = stringOf(c.member) ?? stringOf(c.dimension) ?? '';
  const options = Array.isArray(c.options) ? c.options.map(String) : undefined;
  const targetIds = Array.isArray(c.targets) ? c.targets.filter((t): t is string => typeof t === 'string') : undefined;
  return { member, options, targets: targetIds, title: stringOf(c.title) ?? member };
}
