import type { Widget } from '../model';
import { AiWidget } from './ai-widget';
import { ChartWidget } from './chart-widget';
import { FilterWidget } from './filter-widget';
import { TabsWidget } from './tabs-widget';
import { TextWidget } from './text-widget';
import { TimeGrainWidget } from './time-grain-widget';

/** One widget, by its type. */
export function WidgetView({ widget }: { widget: Widget }) {
  switch (widget.type) {
    case 'CHART':
      return <ChartWidget widget={widget} />;
    case 'TEXT':
      return <TextWidget widget={widget} />;
    case 'FILTER':
      return <FilterWidget widget={widget} />;
    case 'TIME_GRAIN':
      return <TimeGrainWidget widget={widget} />;
    case 'TABS_CONTAINER':
      return <TabsWidget widget={widget} />;
    case 'AI':
      return <AiWidget widget={widget} />;
    default:
      return null;
  }
}
