import { useCallback, useMemo, useRef, useState } from 'preact/hooks';
import type { Palette } from '../charts/chart-options';
import type { Formatter } from '../lib/format';
import type { EmbedSession } from '../session/session';
import { DashboardContext, type DashboardContextValue } from './context';
import type { DashboardEvents } from './events';
import type { ActiveFilter, FilterState } from './filters';
import { readingOrder, tabbedWidgetIds, type Dashboard } from './model';
import { WidgetView } from './widgets/widget-view';

interface Props {
  session: EmbedSession;
  dashboard: Dashboard;
  format: Formatter;
  palette: Palette;
  presets: Record<string, ActiveFilter>;
  events: DashboardEvents;
  openChat?: (question?: string) => void;
}

/** The widgets of a published dashboard on a 12-column grid (one column on narrow screens), sharing filters. */
export function DashboardView({ session, dashboard, format, palette, presets, events, openChat }: Props) {
  const all = dashboard.config.widgets ?? [];
  const widgets = useMemo(() => new Map(all.map((w) => [w.id, w])), [dashboard]);
  const top = useMemo(() => {
    const tabbed = tabbedWidgetIds(all);
    return readingOrder(all.filter((w) => !tabbed.has(w.id)));
  }, [dashboard]);
  const [filters, setFilters] = useState<FilterState>(presets);
  const [grain, setGrain] = useState<string | undefined>(undefined);
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
      events.loaded({ publicId: dashboard.publicId, widgets: all.length });
    });
  }, []);
  const setFilter = useCallback((filter: ActiveFilter) => {
    setFilters((current) => {
      const next = { ...current, [filter.member]: filter };
      events.filterChanged({ publicId: dashboard.publicId, filters: Object.values(next) });
      return next;
    });
  }, []);

  const value: DashboardContextValue = {
    session,
    dashboard,
    widgets,
    format,
    palette,
    filters,
    grain,
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
