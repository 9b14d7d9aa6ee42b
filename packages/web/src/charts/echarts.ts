import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { AriaComponent, DatasetComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

/**
 * ECharts through its core, with only what the report model draws: tree-shaking keeps the
 * dashboard page within its budget. SVG, not canvas: sharp at any zoom, and its shapes are in
 * the DOM (the browser tests wait for them).
 */
echarts.use([
  LineChart,
  BarChart,
  PieChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DatasetComponent,
  AriaComponent,
  SVGRenderer,
]);

export { echarts };
