import type { FilterOperator } from '@plinth/embed/protocol';
import type { DashboardEvents } from '../dashboard/events';
import { host } from './host';

/** A drilled-down value as the protocol carries it: Cube's values are strings, numbers, booleans or null. */
function wireValue(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return String(value);
}

/**
 * The dashboard's events in the embedding protocol's shapes (@plinth/embed's PageEvents): the host
 * sees the dashboard's public id and title, filters without the widgets a filter targets (the
 * dashboard's own layout, nothing the host can name), and the clicked member's raw value.
 */
export const hostDashboardEvents: DashboardEvents = {
  loaded: ({ publicId, title }) => host.loaded({ page: 'dashboard', dashboardId: publicId, title }),
  error: ({ code, message }) => host.error({ code, message }),
  filterChanged: ({ filters }) =>
    // The page's operators are the protocol's (filters.ts reads no others); the protocol validates it again.
    host.filterChanged(
      filters.map(({ member, operator, values }) => ({ member, operator: operator as FilterOperator, values: [...values] })),
    ),
  drillDown: ({ widgetId, member, value, query }) => host.drillDown({ member, value: wireValue(value), query, widgetId }),
};
