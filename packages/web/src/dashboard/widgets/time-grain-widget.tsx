import { useDashboard } from '../context';
import { stringOf, type Widget } from '../model';
import { WidgetFrame } from './widget-frame';

const GRAINS = ['day', 'week', 'month', 'quarter', 'year'];

/** Changes the granularity of every chart's time dimension (`config.options` limits the choice). */
export function TimeGrainWidget({ widget }: { widget: Widget }) {
  const { grain, setGrain } = useDashboard();
  const c = widget.config ?? {};
  const options = Array.isArray(c.options) ? c.options.map(String).filter((g) => GRAINS.includes(g)) : GRAINS;
  const id = `grain-${widget.id}`;
  return (
    <WidgetFrame widget={widget} kind="filter">
      <label class="control-label" for={id}>
        {stringOf(c.title) ?? 'Time grain'}
      </label>
      <select id={id} class="control" value={grain ?? ''} onChange={(e) => setGrain(e.currentTarget.value || undefined)}>
        <option value="">As each report says</option>
        {options.map((g) => (
          <option key={g} value={g}>
            {g[0]?.toUpperCase() + g.slice(1)}
          </option>
        ))}
      </select>
    </WidgetFrame>
  );
}
