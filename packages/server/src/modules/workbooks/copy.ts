import type { Executor } from '../../store/executor.js';
import type { WorkbookRow } from '../../store/schema.js';
import { copyReportsOfWorkbook } from '../reports/public.js';
import { json } from './views.js';

/**
 * "<name> (copy)", or "(copy 2)", "(copy 3)", … when that is taken (compared ignoring case), cut
 * so the suffix always fits in `max` characters.
 */
export function copyName(name: string, taken: ReadonlySet<string>, max: number): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
    const candidate = `${name.slice(0, max - suffix.length)}${suffix}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * Copies the source workbook's reports into the copy (new ids and public ids, the caller as
 * creator, no refresh state: the copy refreshes on its own), and returns the source's draft with
 * its CHART widgets pointed at the copied reports, or null when it has no draft.
 */
export async function copyReports(db: Executor, source: WorkbookRow, copy: WorkbookRow, userId: number | null) {
  const moved = await copyReportsOfWorkbook(db, source.id, { workbookId: copy.id, folderId: copy.folder_id }, userId);
  const draft = json<{ widgets?: Array<{ type: string; config?: Record<string, unknown> | null }> } | null>(source.dashboard_draft);
  if (!draft) return null;
  const widgets = (draft.widgets ?? []).map((widget) => {
    const reportId = widget.config?.reportId;
    if (widget.type !== 'CHART' || typeof reportId !== 'number' || !moved.has(reportId)) return widget;
    return { ...widget, config: { ...widget.config, reportId: moved.get(reportId) } };
  });
  return { ...draft, widgets };
}
