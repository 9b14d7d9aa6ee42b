/**
 * The postMessage protocol between a host page (the `<plinth-dashboard>` element) and an embedded
 * Plinth page. Every message is `{ plinth: 1, type, payload }`; a receiver drops anything else: a
 * message without the marker, of another version, of an unknown type, or whose payload has the
 * wrong shape. Parsing returns a copy holding only the fields named here, so a receiver never
 * hands a sender's extra properties on.
 *
 * The version is the marker's value: a page and a host of different majors ignore each other
 * rather than misread each other.
 */
export const PROTOCOL_VERSION = 1;

/** A dashboard filter as the page keeps it: Cube's filter form, on a `view.dimension` member. */
export interface DashboardFilter {
  member: string;
  operator: FilterOperator;
  values: string[];
}

export const FILTER_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'set',
  'notSet',
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Overrides laid over the page's theme (the names of the embed theme, plus the light or dark mode). */
export interface ThemeOverrides {
  mode?: 'light' | 'dark';
  primaryColor?: string;
  font?: string;
  chat?: { inputColor?: string };
  analyticsChat?: { backgroundColor?: string; chatInput?: { backgroundColor?: string; borderColor?: string } };
}
export type Theme = 'light' | 'dark' | ThemeOverrides;

export type PageKind = 'dashboard' | 'chat' | 'app';

/** What an embedded page tells its host. */
export interface PageEvents {
  /** The page listens: commands sent from now on are delivered. Sent once, before anything else. */
  ready: { version: number };
  /** The page shows its content: a dashboard's public id and title, or the chat or creator app. */
  loaded: { page: PageKind; dashboardId?: string; title?: string };
  /** The page cannot show its content (see ERROR_CODES for the codes the pages use). */
  error: { code: string; message: string };
  /** The dashboard's filters changed (by a filter widget, a preset or setFilters): all of them, as they now are. */
  filterChanged: { filters: DashboardFilter[] };
  /** A data point was clicked: the member and value under the pointer, and the query of the chart. */
  drillDown: { member: string; value: string | number | boolean | null; query: Record<string, unknown>; widgetId?: string };
  /** The height in CSS pixels the page's content needs. */
  resize: { height: number };
}

/** What a host asks of an embedded page. */
export interface HostCommands {
  /** Sent by the host until the page is ready: lets a page that could not learn its host's origin learn it. */
  hello: { version: number };
  /** Replaces the dashboard's filters with these (an empty list clears them). */
  setFilters: { filters: DashboardFilter[] };
  setTheme: { theme: Theme };
  /** Runs the page's queries again, keeping its state. */
  refresh: Record<string, never>;
}

/** The codes of `error` events the Plinth pages send; a page may send others, which hosts should treat as fatal. */
export const ERROR_CODES = ['session_expired', 'not_found', 'forbidden', 'load_failed', 'query_failed'] as const;

export type PageEventType = keyof PageEvents;
export type HostCommandType = keyof HostCommands;
export type Message<M, T extends keyof M = keyof M> = { [K in T]: { plinth: typeof PROTOCOL_VERSION; type: K; payload: M[K] } }[T];
export type PageEvent<T extends PageEventType = PageEventType> = Message<PageEvents, T>;
export type HostCommand<T extends HostCommandType = HostCommandType> = Message<HostCommands, T>;

export function message<M, T extends keyof M>(type: T, payload: M[T]): Message<M, T> {
  return { plinth: PROTOCOL_VERSION, type, payload } as Message<M, T>;
}

// Limits keep a hostile or broken sender from making the receiver hold or render huge values.
export const LIMITS = { string: 2000, filters: 200, values: 1000, height: 1_000_000 } as const;

type Parser<T> = (payload: Record<string, unknown>) => T | null;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown, min = 0): value is string =>
  typeof value === 'string' && value.length >= min && value.length <= LIMITS.string;
const optionalText = (value: unknown): value is string | undefined => value === undefined || isText(value);
const isColour = (value: unknown): value is string | undefined => value === undefined || isText(value, 1);

/** A filter list, or null when any item is malformed. */
export function parseFilters(value: unknown): DashboardFilter[] | null {
  if (!Array.isArray(value) || value.length > LIMITS.filters) return null;
  const filters: DashboardFilter[] = [];
  for (const item of value) {
    if (!isRecord(item) || !isText(item.member, 1) || !(FILTER_OPERATORS as readonly unknown[]).includes(item.operator)) return null;
    const values = item.values ?? [];
    if (!Array.isArray(values) || values.length > LIMITS.values || !values.every((v) => isText(v))) return null;
    filters.push({ member: item.member, operator: item.operator as FilterOperator, values: [...(values as string[])] });
  }
  return filters;
}

export function parseTheme(value: unknown): Theme | null {
  if (value === 'light' || value === 'dark') return value;
  if (!isRecord(value)) return null;
  const { mode, primaryColor, font, chat, analyticsChat } = value;
  if (mode !== undefined && mode !== 'light' && mode !== 'dark') return null;
  if (!isColour(primaryColor) || !isColour(font)) return null;
  const theme: ThemeOverrides = {};
  if (mode) theme.mode = mode;
  if (primaryColor) theme.primaryColor = primaryColor;
  if (font) theme.font = font;
  if (chat !== undefined) {
    if (!isRecord(chat) || !isColour(chat.inputColor)) return null;
    theme.chat = chat.inputColor ? { inputColor: chat.inputColor } : {};
  }
  if (analyticsChat !== undefined) {
    if (!isRecord(analyticsChat) || !isColour(analyticsChat.backgroundColor)) return null;
    const input = analyticsChat.chatInput;
    if (input !== undefined && (!isRecord(input) || !isColour(input.backgroundColor) || !isColour(input.borderColor))) return null;
    theme.analyticsChat = {
      ...(analyticsChat.backgroundColor ? { backgroundColor: analyticsChat.backgroundColor } : {}),
      ...(isRecord(input)
        ? {
            chatInput: {
              ...(input.backgroundColor ? { backgroundColor: input.backgroundColor as string } : {}),
              ...(input.borderColor ? { borderColor: input.borderColor as string } : {}),
            },
          }
        : {}),
    };
  }
  return theme;
}

const version: Parser<{ version: number }> = (p) => (Number.isInteger(p.version) ? { version: p.version as number } : null);

const pageParsers: { [K in PageEventType]: Parser<PageEvents[K]> } = {
  ready: version,
  loaded: (p) => {
    if (p.page !== 'dashboard' && p.page !== 'chat' && p.page !== 'app') return null;
    if (!optionalText(p.dashboardId) || !optionalText(p.title)) return null;
    return {
      page: p.page,
      ...(p.dashboardId !== undefined ? { dashboardId: p.dashboardId } : {}),
      ...(p.title !== undefined ? { title: p.title } : {}),
    };
  },
  error: (p) => (isText(p.code, 1) && isText(p.message) ? { code: p.code, message: p.message } : null),
  filterChanged: (p) => {
    const filters = parseFilters(p.filters);
    return filters ? { filters } : null;
  },
  drillDown: (p) => {
    const { member, value, query, widgetId } = p;
    const scalar = value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)) || isText(value);
    if (!isText(member, 1) || !scalar || !isRecord(query) || !optionalText(widgetId)) return null;
    return { member, value, query: { ...query }, ...(widgetId !== undefined ? { widgetId } : {}) };
  },
  resize: (p) => {
    const height = p.height;
    return typeof height === 'number' && Number.isFinite(height) && height >= 0 && height <= LIMITS.height ? { height } : null;
  },
};

const commandParsers: { [K in HostCommandType]: Parser<HostCommands[K]> } = {
  hello: version,
  setFilters: (p) => {
    const filters = parseFilters(p.filters);
    return filters ? { filters } : null;
  },
  setTheme: (p) => {
    const theme = parseTheme(p.theme);
    return theme ? { theme } : null;
  },
  refresh: () => ({}),
};

function parse<M>(data: unknown, parsers: { [K in keyof M]: Parser<M[K]> }): Message<M> | null {
  if (!isRecord(data) || data.plinth !== PROTOCOL_VERSION || typeof data.type !== 'string') return null;
  if (!Object.prototype.hasOwnProperty.call(parsers, data.type)) return null;
  const type = data.type as keyof M;
  const payload = data.payload === undefined ? {} : data.payload;
  if (!isRecord(payload)) return null;
  const parsed = parsers[type](payload);
  return parsed === null ? null : message<M, keyof M>(type, parsed);
}

/** A page's event, validated and copied, or null for anything else. */
export const parsePageEvent = (data: unknown): PageEvent | null => parse<PageEvents>(data, pageParsers);

/** A host's command, validated and copied, or null for anything else. */
export const parseHostCommand = (data: unknown): HostCommand | null => parse<HostCommands>(data, commandParsers);
