import { ApiError } from '../../http/errors.js';
import { contextFor } from '../../pipeline/context.js';
import type { Services } from '../module.js';
import type { ChatCaller } from './caller.js';
import { CHART_TYPES, LIMITS, type ChartType } from './limits.js';
import type { LlmTool } from './llm.js';

/** A view as the model is shown it: only members this user may see. */
export interface ToolView {
  name: string;
  title: string;
  description?: string;
  members: { name: string; title: string; type: string; kind: 'measure' | 'dimension' | 'segment'; description?: string }[];
}

export const TOOLS: LlmTool[] = [
  {
    type: 'function',
    function: {
      name: 'cubeMeta',
      description: 'Lists the views you may query, with their measures, dimensions and segments. Optionally narrowed by words.',
      parameters: { type: 'object', properties: { searchQuery: { type: 'string' } }, additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'cubeQuery',
      description:
        'Runs a Cube REST API query (measures, dimensions, timeDimensions, filters, segments, order, limit) on the views you may query, ' +
        `as the current user, and shows its rows as a table and a chart. At most ${LIMITS.rows} rows come back.`,
      parameters: {
        type: 'object',
        required: ['query'],
        properties: {
          query: { type: 'object', description: 'A Cube query; every member is `<view>.<member>`.' },
          chartType: { type: 'string', enum: [...CHART_TYPES] },
          title: { type: 'string' },
        },
      },
    },
  },
];

/** The views of the agent this user may see, as the data API's meta answers it for them. */
export async function viewsFor(
  services: Pick<Services, 'dataApi'>,
  caller: ChatCaller,
  accessible: readonly string[],
): Promise<ToolView[]> {
  const { principal } = caller;
  const answer = await services.dataApi.meta(contextFor(principal), { deploymentId: principal.claims.deploymentId }, { onlyViews: true });
  return answer.cubes
    .filter((cube) => accessible.length === 0 || accessible.includes(cube.name))
    .map((cube) => ({
      name: cube.name,
      title: cube.title,
      ...(cube.description ? { description: cube.description } : {}),
      members: [
        ...cube.measures.map((m) => ({ ...member(m), kind: 'measure' as const })),
        ...cube.dimensions.map((m) => ({ ...member(m), kind: 'dimension' as const })),
        ...cube.segments.map((m) => ({ ...member(m), kind: 'segment' as const })),
      ].filter((m) => m.visible),
    }))
    .map((view) => ({ ...view, members: view.members.map(({ visible: _visible, ...m }) => m) }));
}

function member(m: { name: string; title: string; type: string; description?: string; isVisible: boolean; public: boolean }) {
  return {
    name: m.name,
    title: m.title,
    type: m.type,
    visible: m.isVisible !== false && m.public !== false,
    ...(m.description ? { description: m.description } : {}),
  };
}

export function runMeta(views: ToolView[], args: { searchQuery?: unknown }) {
  const words = typeof args.searchQuery === 'string' ? args.searchQuery.toLowerCase().split(/\s+/).filter(Boolean) : [];
  const matches = (text: string) => words.length === 0 || words.some((w) => text.toLowerCase().includes(w));
  const found = views.filter((v) =>
    matches(`${v.name} ${v.title} ${v.description ?? ''} ${v.members.map((m) => `${m.name} ${m.title}`).join(' ')}`),
  );
  return { cubes: found.length > 0 ? found : views, ...(words.length ? { searchQuery: args.searchQuery } : {}) };
}

/** Every member a Cube query names, wherever it names it (filters nest in and/or). */
export function membersOf(query: Record<string, unknown>): string[] {
  const found: string[] = [];
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  found.push(...strings(query.measures), ...strings(query.dimensions), ...strings(query.segments));
  for (const td of Array.isArray(query.timeDimensions) ? query.timeDimensions : []) {
    if (typeof (td as { dimension?: unknown })?.dimension === 'string') found.push((td as { dimension: string }).dimension);
  }
  const filters = (list: unknown): void => {
    for (const f of Array.isArray(list) ? list : []) {
      const filter = f as { member?: unknown; dimension?: unknown; and?: unknown; or?: unknown };
      if (typeof filter?.member === 'string') found.push(filter.member);
      if (typeof filter?.dimension === 'string') found.push(filter.dimension);
      filters(filter?.and);
      filters(filter?.or);
    }
  };
  filters(query.filters);
  const order = query.order;
  if (Array.isArray(order)) for (const entry of order) if (Array.isArray(entry) && typeof entry[0] === 'string') found.push(entry[0]);
  if (order && typeof order === 'object' && !Array.isArray(order)) found.push(...Object.keys(order));
  return [...new Set(found)];
}

/**
 * Runs a `cubeQuery` call as the chat's user: refused as a tool error (never run) when it names a
 * view the agent may not use, otherwise the data API's load under the user's own token, so groups,
 * attributes, security context and row-level policies apply exactly as on their dashboard.
 */
export async function runQuery(
  services: Pick<Services, 'dataApi'>,
  caller: ChatCaller,
  views: ToolView[],
  args: { query?: unknown; chartType?: unknown; title?: unknown },
): Promise<Record<string, unknown>> {
  const query = args.query;
  if (!query || typeof query !== 'object' || Array.isArray(query)) return { error: 'query must be an object (a Cube query)' };
  const members = membersOf(query as Record<string, unknown>);
  if (members.length === 0) return { error: 'query names no measure or dimension' };
  const allowed = new Set(views.map((v) => v.name));
  const outside = members.filter((m) => !allowed.has(m.split('.')[0]!));
  if (outside.length > 0) {
    return {
      error: `Not allowed: ${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} not in a view this agent may query (${[...allowed].join(', ') || 'none'})`,
    };
  }
  const limited = { ...(query as Record<string, unknown>) };
  const asked = typeof limited.limit === 'number' && limited.limit > 0 ? limited.limit : LIMITS.rows;
  limited.limit = Math.min(asked, LIMITS.rows);
  if (caller.timezone && limited.timezone === undefined) limited.timezone = caller.timezone;
  const { principal } = caller;
  let answer: { data?: unknown; annotation?: unknown; error?: unknown };
  try {
    answer = (await services.dataApi.load(
      contextFor(principal),
      { deploymentId: principal.claims.deploymentId },
      limited,
    )) as typeof answer;
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return { error: error.message };
    throw error;
  }
  if (typeof answer.error === 'string') return { error: answer.error };
  const data = Array.isArray(answer.data) ? (answer.data as Record<string, unknown>[]) : [];
  const measures = Array.isArray(limited.measures) ? (limited.measures as string[]) : [];
  const times = Array.isArray(limited.timeDimensions) ? (limited.timeDimensions as { dimension: string; granularity?: string }[]) : [];
  const dims = Array.isArray(limited.dimensions) ? (limited.dimensions as string[]) : [];
  const time = times.find((t) => t.granularity);
  const x = time ? `${time.dimension}.${time.granularity}` : (dims[0] ?? null);
  return {
    ...(typeof args.title === 'string' ? { title: args.title } : {}),
    query: limited,
    data,
    totalRows: data.length,
    annotation: answer.annotation ?? {},
    chart: { type: chartTypeOf(args.chartType, x, measures, data.length), x, y: measures },
  };
}

function chartTypeOf(asked: unknown, x: string | null, measures: string[], rows: number): ChartType {
  if (typeof asked === 'string' && (CHART_TYPES as readonly string[]).includes(asked)) return asked as ChartType;
  if (x === null) return rows === 1 && measures.length === 1 ? 'number' : 'table';
  return x.split('.').length === 3 ? 'line' : 'bar';
}
