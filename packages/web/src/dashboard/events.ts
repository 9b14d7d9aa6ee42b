import type { ActiveFilter } from './filters';

/**
 * What the dashboard tells its host, as it happens. Round two's page-side bridge of @plinth/embed
 * implements this to post `loaded`, `error`, `filterChanged` and `drillDown` to the parent window
 * (and to report the content's height for resizing); until then the page calls `noEvents`.
 */
export interface DashboardEvents {
  /** Every chart has drawn (or failed): the dashboard is on screen. */
  loaded(detail: { publicId: string; widgets: number }): void;
  error(detail: { publicId: string; message: string; widgetId?: string }): void;
  filterChanged(detail: { publicId: string; filters: ActiveFilter[] }): void;
  drillDown(detail: { publicId: string; widgetId: string; member: string; value: unknown }): void;
}

export const noEvents: DashboardEvents = { loaded() {}, error() {}, filterChanged() {}, drillDown() {} };

/** Where round two registers its bridge before the page renders (`setDashboardEvents(bridge)`). */
let current: DashboardEvents = noEvents;
export const setDashboardEvents = (events: DashboardEvents) => {
  current = events;
};
export const dashboardEvents = () => current;
