import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Palette } from '../charts/chart-options';
import type { Formatter } from '../lib/format';
import type { EmbedSession } from '../session/session';
import type { DashboardEvents } from './events';
import type { ActiveFilter, FilterState } from './filters';
import type { Dashboard, Widget } from './model';

/** What every widget of a dashboard reads: set once by DashboardView, filters changing as the viewer picks them. */
export interface DashboardContextValue {
  session: EmbedSession;
  dashboard: Dashboard;
  widgets: Map<string, Widget>;
  format: Formatter;
  palette: Palette;
  filters: FilterState;
  grain: string | undefined;
  /** Counts the host's refreshes: every chart runs its query again when it changes. */
  generation: number;
  setFilter(filter: ActiveFilter): void;
  setGrain(grain: string | undefined): void;
  events: DashboardEvents;
  /** A chart widget on screen (in a closed tab it is not): the dashboard waits for it before `loaded`. */
  register(widgetId: string): void;
  /** The chart widget has finished (drawn, empty or failed); the dashboard's `loaded` fires after the last. */
  settled(widgetId: string): void;
  /** Opens the chat panel (AI widgets and the launcher); absent when the chat is hidden for the session. */
  openChat?: (question?: string) => void;
}

export const DashboardContext = createContext<DashboardContextValue | null>(null);

export function useDashboard(): DashboardContextValue {
  const value = useContext(DashboardContext);
  if (!value) throw new Error('A widget was drawn outside a dashboard');
  return value;
}
