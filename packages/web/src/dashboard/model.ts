import type { CubeQuery } from '../lib/data-api';

/** The published dashboard as getDashboard answers it (modules/workbooks/dashboard-schemas.ts). */
export type WidgetType = 'CHART' | 'TEXT' | 'FILTER' | 'AI' | 'TABS_CONTAINER' | 'TIME_GRAIN';

export interface Widget {
  id: string;
  type: WidgetType;
  position: { x: number; y: number; w: number; h: number };
  config?: Record<string, unknown> | null;
  style?: Record<string, unknown> | null;
}

export interface ReportSnapshot {
  id: number;
  reportId: number;
  name: string | null;
  title: string | null;
  description: string | null;
  meta: Record<string, unknown> | null;
  spec: string | Record<string, unknown> | null;
}

export interface Dashboard {
  publicId: string;
  deploymentId: number;
  /** The workbook it was published from (creator mode's Edit and Duplicate open it). */
  workbookId?: number;
  status?: 'draft' | 'published' | 'archived';
  versionNumber?: number;
  title: string | null;
  description: string | null;
  config: {
    title?: string | null;
    widgets?: Widget[] | null;
    theme?: Record<string, unknown> | null;
    layout?: { cols?: { lg?: number | null } | null } | null;
  };
  reportSnapshots: ReportSnapshot[];
}

/** The widgets in reading order: top to bottom, then left to right. */
export const readingOrder = (widgets: Widget[]) => [...widgets].sort((a, b) => a.position.y - b.position.y || a.position.x - b.position.x);

/** The Cube query a report snapshot runs, or null when it has none this page can run (a SQL report). */
export function queryOf(snapshot: ReportSnapshot | undefined): CubeQuery | null {
  const spec = snapshot?.spec;
  if (!spec) return null;
  if (typeof spec === 'object') return spec as CubeQuery;
  try {
    const parsed = JSON.parse(spec) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as CubeQuery) : null;
  } catch {
    return null;
  }
}

export const stringOf = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/** The widgets a TABS_CONTAINER holds: they are drawn inside its tabs, not on the page. */
export function tabbedWidgetIds(widgets: Widget[]): Set<string> {
  const ids = new Set<string>();
  for (const w of widgets) {
    if (w.type !== 'TABS_CONTAINER') continue;
    for (const tab of tabsOf(w)) for (const id of tab.widgetIds) ids.add(id);
  }
  return ids;
}

export function tabsOf(widget: Widget): { title: string; widgetIds: string[] }[] {
  const tabs = widget.config?.tabs;
  if (!Array.isArray(tabs)) return [];
  return tabs.map((t: { title?: unknown; name?: unknown; widgetIds?: unknown }, i) => ({
    title: stringOf(t.title) ?? stringOf(t.name) ?? `Tab ${i + 1}`,
    widgetIds: Array.isArray(t.widgetIds) ? t.widgetIds.filter((id): id is string => typeof id === 'string') : [],
  }));
}
