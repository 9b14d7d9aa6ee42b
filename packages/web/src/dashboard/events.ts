import type { CubeQuery } from '../lib/data-api';
import type { ActiveFilter } from './filters';

/** The `error` codes of the embedding protocol (@plinth/embed's ERROR_CODES) the dashboard sends. */
export type DashboardErrorCode = 'session_expired' | 'not_found' | 'forbidden' | 'load_failed' | 'query_failed';

/**
 * What the dashboard tells its host, as it happens. The page's host bridge (lib/host-events.ts)
 * posts them to the parent window; a page that is not framed drops them.
 */
export interface DashboardEvents {
  /** Every chart has drawn (or failed): the dashboard is on screen. */
  loaded(detail: { publicId: string; title: string; widgets: number }): void;
  error(detail: { publicId: string; code: DashboardErrorCode; message: string; widgetId?: string }): void;
  /** All the dashboard's filters as they now are. */
  filterChanged(detail: { publicId: string; filters: ActiveFilter[] }): void;
  /** A chart's data point or a table's cell was clicked: its member, its raw value and the chart's query. */
  drillDown(detail: { publicId: string; widgetId: string; member: string; value: unknown; query: CubeQuery }): void;
}

export const noEvents: DashboardEvents = { loaded() {}, error() {}, filterChanged() {}, drillDown() {} };

/** Where the page registers its bridge before the dashboard renders (`setDashboardEvents(bridge)`). */
let current: DashboardEvents = noEvents;
export const setDashboardEvents = (events: DashboardEvents) => {
  current = events;
};
export const dashboardEvents = () => current;
