import type { Static } from '@sinclair/typebox';
import { badRequest } from '../../http/errors.js';
import type { DashboardConfigInput } from './dashboard-schemas.js';
import type { CalculatedField } from './schemas.js';

export type DashboardConfigValue = Static<typeof DashboardConfigInput>;
export type CalculatedFieldValue = Static<typeof CalculatedField>;

/** Letters, digits and underscores, not starting with a digit: a name a query can refer to. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * The schema has checked each field's shape; what it cannot say is checked here, each refusal
 * naming the field: its name, and that it has exactly one of `sql` and `expression`.
 */
export function checkCalculatedFields(fields: Record<string, CalculatedFieldValue>): void {
  for (const [name, field] of Object.entries(fields)) {
    const at = `calculatedFields.${name}`;
    if (!FIELD_NAME.test(name)) {
      throw badRequest(
        `calculatedFields: the name ${JSON.stringify(name)} is not valid; use a letter or underscore, then letters, digits and underscores (at most 64)`,
      );
    }
    const given = [field.sql, field.expression].filter((v) => v !== undefined);
    if (given.length !== 1) throw badRequest(`${at}: give exactly one of "sql" and "expression"`);
    if (given[0]!.trim() === '') throw badRequest(`${at}: ${field.sql !== undefined ? 'sql' : 'expression'} is blank`);
  }
}

/** What the dashboard check needs to know of the workbook's reports. */
export type ReportsOfWorkbook = (ids: number[]) => Promise<Set<number>>;

/**
 * Checks what the schema cannot: widget ids unique; a CHART's `config.reportId` names a report of
 * this workbook; a TABS_CONTAINER's tabs name only other widgets of the dashboard, each in one
 * container at most; responsive layouts never wider than the grid. Every refusal names the widget.
 * Returns the report ids the dashboard shows.
 */
export async function checkDashboard(config: DashboardConfigValue, reportsOf: ReportsOfWorkbook, field: string): Promise<number[]> {
  const ids = new Set<string>();
  const name = (i: number) => `${field}.widgets[${i}] (id ${JSON.stringify(config.widgets[i]!.id)})`;
  config.widgets.forEach((widget, i) => {
    if (ids.has(widget.id)) throw badRequest(`${name(i)}: another widget has the same id; widget ids must be unique`);
    ids.add(widget.id);
  });

  const charts: Array<{ index: number; reportId: number }> = [];
  const contained = new Map<string, string>();
  config.widgets.forEach((widget, i) => {
    const settings = (widget.config ?? {}) as Record<string, unknown>;
    if (widget.type === 'CHART') {
      const reportId = settings.reportId;
      if (!Number.isInteger(reportId) || (reportId as number) < 1 || (reportId as number) > 2_147_483_647) {
        throw badRequest(`${name(i)}: a CHART widget needs config.reportId, the id of a report of this workbook`);
      }
      charts.push({ index: i, reportId: reportId as number });
    }
    if (widget.type === 'TABS_CONTAINER' && settings.tabs !== undefined) {
      if (!Array.isArray(settings.tabs)) throw badRequest(`${name(i)}: config.tabs must be a list of tabs`);
      settings.tabs.forEach((tab: unknown, t: number) => {
        const members = (tab as { widgetIds?: unknown } | null)?.widgetIds ?? [];
        if (!Array.isArray(members) || members.some((m) => typeof m !== 'string')) {
          throw badRequest(`${name(i)}: config.tabs[${t}].widgetIds must be a list of widget ids`);
        }
        for (const member of members as string[]) {
          if (member === widget.id) throw badRequest(`${name(i)}: config.tabs[${t}] contains the container itself`);
          if (!ids.has(member))
            throw badRequest(`${name(i)}: config.tabs[${t}] names widget ${JSON.stringify(member)}, which is not on the dashboard`);
          const holder = contained.get(member);
          if (holder !== undefined)
            throw badRequest(`${name(i)}: widget ${JSON.stringify(member)} is already in container ${JSON.stringify(holder)}`);
          contained.set(member, widget.id);
        }
      });
    }
  });

  const cols = config.layout?.cols ?? null;
  config.widgets.forEach((widget, i) => {
    for (const [breakpoint, position] of Object.entries(widget.responsiveLayouts ?? {})) {
      const width = cols?.[breakpoint as keyof typeof cols];
      if (position && typeof width === 'number' && position.x + position.w > width) {
        throw badRequest(`${name(i)}: responsiveLayouts.${breakpoint} reaches past the ${width} columns of layout.cols.${breakpoint}`);
      }
    }
  });

  const wanted = [...new Set(charts.map((c) => c.reportId))];
  const found = wanted.length ? await reportsOf(wanted) : new Set<number>();
  const missing = charts.find((c) => !found.has(c.reportId));
  if (missing) throw badRequest(`${name(missing.index)}: report ${missing.reportId} is not a report of this workbook`);
  return wanted;
}
