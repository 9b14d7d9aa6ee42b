import type { Formatter } from '../lib/format';
import type { ChartModel, ChartType } from './chart-model';

export interface Palette {
  text: string;
  muted: string;
  colors: string[];
}

/** The ECharts option of a line, bar, area or pie chart; the category axis is formatted for the viewer. */
export function chartOption(model: ChartModel, type: Exclude<ChartType, 'table' | 'number'>, format: Formatter, palette: Palette) {
  const category = model.category;
  const label = (row: Record<string, unknown>) => (category ? format.value(row[category.key], category.type, category.granularity) : '');
  const common = {
    animation: false,
    color: palette.colors,
    textStyle: { color: palette.text },
    // The aria component writes a description on the chart for screen readers, beside our own table.
    aria: { enabled: true },
    tooltip: { trigger: type === 'pie' ? 'item' : 'axis', valueFormatter: (v: unknown) => format.number(v) },
    legend: { show: model.measures.length > 1 || type === 'pie', bottom: 0, textStyle: { color: palette.muted }, type: 'scroll' },
  };
  if (type === 'pie') {
    const measure = model.measures[0];
    return {
      ...common,
      series: [
        {
          type: 'pie',
          radius: ['35%', '65%'],
          name: measure?.title,
          data: model.rows.map((row) => ({ name: label(row), value: Number(row[measure?.key ?? '']) || 0 })),
          label: { color: palette.muted },
        },
      ],
    };
  }
  return {
    ...common,
    grid: { left: 8, right: 16, top: 16, bottom: model.measures.length > 1 ? 32 : 8, containLabel: true },
    xAxis: { type: 'category', data: model.rows.map(label), axisLabel: { color: palette.muted, hideOverlap: true } },
    yAxis: { type: 'value', axisLabel: { color: palette.muted, formatter: (v: number) => format.number(v) } },
    series: model.measures.map((m) => ({
      type: type === 'bar' ? 'bar' : 'line',
      name: m.title,
      data: model.rows.map((row) => Number(row[m.key]) || 0),
      ...(type === 'area' ? { areaStyle: { opacity: 0.25 } } : {}),
      showSymbol: model.rows.length < 40,
    })),
  };
}
