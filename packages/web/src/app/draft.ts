import { readingOrder, type Widget } from '../dashboard/model';
import type { DashboardDraft } from './api';

/**
 * The dashboard draft as the app edits it: widgets stacked top to bottom in the order shown, each
 * keeping its width. Placing appends at the bottom; moving swaps neighbours; the grid rows follow.
 */
export function ordered(draft: DashboardDraft): Widget[] {
  return readingOrder(draft.widgets);
}

export function restack(widgets: Widget[]): Widget[] {
  let y = 0;
  return widgets.map((w) => {
    const placed = { ...w, position: { ...w.position, x: 0, y } };
    y += w.position.h;
    return placed;
  });
}

let counter = 0;
const newId = (kind: string) => `${kind}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export const chartWidget = (reportId: number): Widget => ({
  id: newId('chart'),
  type: 'CHART',
  position: { x: 0, y: 0, w: 12, h: 4 },
  config: { reportId },
});

export const textWidget = (text: string): Widget => ({
  id: newId('text'),
  type: 'TEXT',
  position: { x: 0, y: 0, w: 12, h: 2 },
  config: { text },
});

export const append = (widgets: Widget[], widget: Widget) => restack([...widgets, widget]);
export const remove = (widgets: Widget[], id: string) => restack(widgets.filter((w) => w.id !== id));

export function move(widgets: Widget[], id: string, by: -1 | 1): Widget[] {
  const from = widgets.findIndex((w) => w.id === id);
  const to = from + by;
  if (from < 0 || to < 0 || to >= widgets.length) return widgets;
  const next = [...widgets];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return restack(next);
}
