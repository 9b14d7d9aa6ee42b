import { useEffect, useRef } from 'preact/hooks';
import type { Formatter } from '../lib/format';
import { chartOption, type Palette } from './chart-options';
import { pickPoint, type ChartModel, type ChartType, type Pick } from './chart-model';
import { DataTable } from './data-table';
import { echarts } from './echarts';

interface Props {
  model: ChartModel;
  type: ChartType;
  format: Formatter;
  description: string;
  palette: Palette;
  /** A data point or a table cell was clicked (the dashboard's drill-down). */
  onPick?: Pick;
}

/** A report drawn: a KPI number, a table, or an ECharts chart with its values in a hidden table. */
export function ChartView({ model, type, format, description, palette, onPick }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const drawn = type !== 'table' && type !== 'number';
  // The latest handler, without drawing the chart again when only the handler changed.
  const pick = useRef(onPick);
  pick.current = onPick;
  useEffect(() => {
    if (!drawn) return;
    const element = box.current;
    if (!element) return;
    const chart = echarts.init(element, null, { renderer: 'svg' });
    chart.setOption(chartOption(model, type, format, palette));
    chart.on('click', (p: { dataIndex?: number; seriesIndex?: number }) => {
      if (pick.current) pickPoint(model, p.dataIndex ?? -1, p.seriesIndex ?? 0, pick.current);
    });
    element.dataset.drawn = 'true';
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [model, type, format, palette, drawn]);

  if (type === 'number') {
    return (
      <div class="kpi" role="group" aria-label={description}>
        {model.measures.map((m) => (
          <div key={m.key} class="kpi-item">
            <span class="kpi-value">{format.number(model.rows[0]?.[m.key])}</span>
            <span class="kpi-label">{m.title}</span>
          </div>
        ))}
      </div>
    );
  }
  if (type === 'table') return <DataTable model={model} format={format} caption={description} {...(onPick ? { onPick } : {})} />;
  return (
    <figure class="chart-figure">
      <div ref={box} class="chart-canvas" role="img" aria-label={description} data-chart-type={type} />
      <DataTable model={model} format={format} caption={description} hidden />
    </figure>
  );
}
