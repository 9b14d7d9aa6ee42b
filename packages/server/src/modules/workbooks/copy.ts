import { randomInt } from 'node:crypto';
import type { Executor } from '../../store/executor.js';
import type { WorkbookRow } from '../../store/schema.js';
import { json } from './views.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A report's public id: 12 letters and digits (store/schema.ts ReportTable). */
export const reportPublicId = () => Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

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
export async function copyReports(db: Executor, source: WorkbookRow, copy: WorkbookRow, userId: number) {
  const reports = await db.selectFrom('report').selectAll().where('workbook_id', '=', source.id).orderBy('id').execute();
  const moved = new Map<number, number>();
  for (const report of reports) {
    const { id, public_id: _p, workbook_id: _w, folder_id: _f, created_at: _c, updated_at: _u, ...rest } = report;
    const inserted = await db
      .insertInto('report')
      .values({
        ...rest,
        pivot_items: rest.pivot_items === null ? null : JSON.stringify(rest.pivot_items),
        meta: rest.meta === null ? null : JSON.stringify(rest.meta),
        snapshot: null,
        refresh_error: null,
        refreshed_by: null,
        refreshed_at: null,
        version: 1,
        public_id: reportPublicId(),
        workbook_id: copy.id,
        folder_id: copy.folder_id,
        created_by: userId,
        updated_by: userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    moved.set(id, inserted.id);
  }
  const draft = json<{ widgets?: Array<{ type: string; config?: Record<string, unknown> | null }> } | null>(source.dashboard_draft);
  if (!draft) return null;
  const widgets = (draft.widgets ?? []).map((widget) => {
    const reportId = widget.config?.reportId;
    if (widget.type !== 'CHART' || typeof reportId !== 'number' || !moved.has(reportId)) return widget;
    return { ...widget, config: { ...widget.config, reportId: moved.get(reportId) } };
  });
  return { ...draft, widgets };
}
