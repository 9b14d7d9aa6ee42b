import type { Widget } from '../dashboard/model';
import type { Report } from './api';
import { move, remove } from './draft';

interface Props {
  title: string;
  widgets: Widget[];
  reports: Report[];
  onTitle(title: string): void;
  onWidgets(widgets: Widget[]): void;
}

const what = (w: Widget, reports: Report[]) => {
  if (w.type === 'CHART') {
    const report = reports.find((r) => r.id === Number(w.config?.reportId));
    return report ? `Chart: ${report.name}` : 'Chart of a deleted report';
  }
  return w.type === 'TEXT' ? 'Text' : w.type.toLowerCase().replace('_', ' ');
};

/** The dashboard draft: its title and its widgets in order, each moved up or down, removed, or (text) edited. */
export function DraftEditor({ title, widgets, reports, onTitle, onWidgets }: Props) {
  const setText = (id: string, text: string) => onWidgets(widgets.map((w) => (w.id === id ? { ...w, config: { ...w.config, text } } : w)));
  return (
    <div class="draft">
      <label class="qb-field">
        <span class="control-label">Dashboard title</span>
        <input id="dashboard-title" class="control" value={title} maxLength={500} onInput={(e) => onTitle(e.currentTarget.value)} />
      </label>
      {widgets.length === 0 ? <p class="muted">Nothing on the dashboard yet: add a report’s chart or a text.</p> : null}
      <ol class="app-list" data-draft-widgets>
        {widgets.map((w, i) => {
          const name = what(w, reports);
          return (
            <li key={w.id} class="app-card" data-draft-widget={w.type}>
              <span>{name}</span>
              {w.type === 'TEXT' ? (
                <label class="qb-field">
                  <span class="visually-hidden">Text of widget {i + 1}</span>
                  <textarea
                    class="control"
                    rows={2}
                    value={String(w.config?.text ?? '')}
                    onInput={(e) => setText(w.id, e.currentTarget.value)}
                  />
                </label>
              ) : null}
              <div class="app-row">
                <button
                  type="button"
                  class="button"
                  aria-label={`Move ${name} up`}
                  disabled={i === 0}
                  onClick={() => onWidgets(move(widgets, w.id, -1))}
                >
                  Up
                </button>
                <button
                  type="button"
                  class="button"
                  aria-label={`Move ${name} down`}
                  disabled={i === widgets.length - 1}
                  onClick={() => onWidgets(move(widgets, w.id, 1))}
                >
                  Down
                </button>
                <button type="button" class="button" aria-label={`Remove ${name}`} onClick={() => onWidgets(remove(widgets, w.id))}>
                  Remove
                </button>
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
