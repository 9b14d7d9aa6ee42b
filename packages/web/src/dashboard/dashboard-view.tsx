import type { Ref } from 'preact';
import { useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'preact/hooks';
import type { Palette } from '../charts/chart-options';
import type { Formatter } from '../lib/format';
import type { EmbedSession } from '../session/session';
import { DashboardContext, type DashboardContextValue } from './context';
import type { DashboardEvents } from './events';
import { withWidgetTargets, type ActiveFilter, type FilterState } from './filters';
import { readingOrder, tabbedWidgetIds, type Dashboard } from './model';
import { WidgetView } from './widgets/widget-view';

/** What the page asks of a dashboard on screen at the host's word. */
export interface DashboardControl {
  /** Replaces every filter (the widgets' and the presets') with these. */
  replaceFilters(filters: ActiveFilter[]): void;
  /** Runs every chart's query again. */
  refresh(): void;
}

interface Props {
  session: EmbedSession;
  dashboard: Dashboard;
  title: string;
  format: Formatter;
  palette: Palette;
  presets: ActiveFilter[];
  events: DashboardEvents;
  control?: Ref<DashboardControl>;
  openChat?: (question?: string) => void;
}

const stateOf = (filters: ActiveFilter[]): FilterState => Object.fromEntries(filters.map((f) => [f.member, f]));

/** The widgets of a published dashboard on a 12-column grid (one column on narrow screens), sharing filters. */
export function DashboardView({ session, dashboard, title, format, palette, presets, events, control, openChat }: Props) {
  const all = dashboard.config.widgets ?? [];
  const widgets = useMemo(() => new Map(all.map((w) => [w.id, w])), [dashboard]);
  const top = useMemo(() => {
    const tabbed = tabbedWidgetIds(all);
    return readingOrder(all.filter((w) => !tabbed.has(w.id)));
  }, [dashboard]);
  const [filters, setFilters] = useState<FilterState>(() => stateOf(withWidgetTargets(presets, all)));
  const [grain, setGrain] = useState<string | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  const pending = useRef(new Set<string>());
  const announced = useRef(false);

  const register = useCallback((widgetId: string) => {
    if (!announced.current) pending.current.add(widgetId);
  }, []);
  const settled = useCallback((widgetId: string) => {
    pending.current.delete(widgetId);
    // On the next turn: charts that mount in the same commit register first.
    setTimeout(() => {
      if (pending.current.size > 0 || announced.current) return;
      announced.current = true;
      // What the browser tests and the benchmark wait for: every chart on screen is drawn.
      document.documentElement.dataset.dashboardLoaded = 'true';
      events.loaded({ publicId: dashboard.publicId, title, widgets: all.length });
    });
  }, []);
  const setFilter = useCallback((filter: ActiveFilter) => setFilters((current) => ({ ...current, [filter.member]: filter })), []);
  useImperativeHandle(
    control ?? null,
    () => ({
      replaceFilters: (next) => setFilters(stateOf(withWidgetTargets(next, all))),
      refresh: () => setGeneration((n) => n + 1),
    }),
    [dashboard],
  );
  // Every change after the first render, whoever made it (a filter widget or the host), is the host's to know.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    events.filterChanged({ publicId: dashboard.publicId, filters: Object.values(filters) });
  }, [filters]);

  const value: DashboardContextValue = {
    session,
    dashboard,
    widgets,
    format,
    palette,
    filters,
    grain,
    generation,
    setFilter,
    setGrain,
    events,
    register,
    settled,
    ...(openChat ? { openChat } : {}),
  };
  if (top.length === 0) return <div class="state state-empty">This dashboard has no widgets yet.</div>;
  return (
    <DashboardContext.Provider value={value}>
      <div class="grid">
        {top.map((w) => (
          <WidgetView key={w.id} widget={w} />
        ))}
      </div>
    </DashboardContext.Provider>
  );
}
