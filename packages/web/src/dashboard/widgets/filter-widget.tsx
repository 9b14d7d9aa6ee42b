import { useDashboard } from '../context';
import { filterWidgetConfig } from '../filters';
import type { Widget } from '../model';
import { WidgetFrame } from './widget-frame';

/**
 * A dashboard filter on one member: a list of `options` to pick from, else a free text field
 * (comma-separated values). Changing it narrows only the charts it targets.
 */
export function FilterWidget({ widget }: { widget: Widget }) {
  const { filters, setFilter } = useDashboard();
  const { member, options, targets, title } = filterWidgetConfig(widget);
  if (!member) return null;
  const active = filters[member];
  const value = active?.values.join(', ') ?? '';
  const id = `filter-${widget.id}`;
  const change = (text: string) =>
    setFilter({
      member,
      operator: active?.operator ?? 'equals',
      values: text
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
      ...(targets ? { targets } : {}),
    });
  return (
    <WidgetFrame widget={widget} kind="filter">
      <label class="control-label" for={id}>
        {title}
      </label>
      {options ? (
        <select id={id} class="control" value={active?.values[0] ?? ''} onChange={(e) => change(e.currentTarget.value)}>
          <option value="">All</option>
          {options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} class="control" type="text" value={value} placeholder="All" onChange={(e) => change(e.currentTarget.value)} />
      )}
    </WidgetFrame>
  );
}
