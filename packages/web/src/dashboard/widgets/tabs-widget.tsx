import { useState } from 'preact/hooks';
import { useDashboard } from '../context';
import { readingOrder, stringOf, tabsOf, type Widget } from '../model';
import { WidgetFrame } from './widget-frame';
import { WidgetView } from './widget-view';

/** Tabs, each holding other widgets of the dashboard; only the open tab's widgets are drawn. */
export function TabsWidget({ widget }: { widget: Widget }) {
  const { widgets } = useDashboard();
  const tabs = tabsOf(widget);
  const [open, setOpen] = useState(0);
  const current = tabs[open];
  const inside = readingOrder((current?.widgetIds ?? []).map((id) => widgets.get(id)).filter((w): w is Widget => !!w));
  return (
    <WidgetFrame widget={widget} title={stringOf(widget.config?.title)} kind="tabs">
      <div role="tablist" class="tabs">
        {tabs.map((tab, i) => (
          <button
            type="button"
            role="tab"
            key={i}
            id={`tab-${widget.id}-${i}`}
            aria-selected={i === open ? 'true' : 'false'}
            aria-controls={`panel-${widget.id}`}
            class={i === open ? 'tab tab-open' : 'tab'}
            onClick={() => setOpen(i)}
          >
            {tab.title}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${widget.id}`} aria-labelledby={`tab-${widget.id}-${open}`} class="grid">
        {inside.map((w) => (
          <WidgetView key={w.id} widget={w} />
        ))}
      </div>
    </WidgetFrame>
  );
}
