import { stringOf, type Widget } from '../model';
import { WidgetFrame } from './widget-frame';

/** Text of the dashboard's author, shown as text (never as HTML): paragraphs split on blank lines. */
export function TextWidget({ widget }: { widget: Widget }) {
  const c = widget.config ?? {};
  const text = stringOf(c.text) ?? stringOf(c.content) ?? stringOf(c.markdown) ?? '';
  const paragraphs = text.split(/\n\s*\n/).filter((p) => p.trim());
  return (
    <WidgetFrame widget={widget} title={stringOf(c.title)} kind="text">
      {paragraphs.map((p, i) => (
        <p key={i} class="text-paragraph">
          {p}
        </p>
      ))}
    </WidgetFrame>
  );
}
