import type { ComponentChildren } from 'preact';
import type { Widget } from '../model';

/** The card every widget sits in, spanning its grid columns on wide screens (one column on a phone). */
export function WidgetFrame(props: { widget: Widget; title?: string; kind: string; busy?: boolean; children: ComponentChildren }) {
  const { widget, title, kind, busy, children } = props;
  const span = Math.max(1, Math.min(12, widget.position.w));
  return (
    <section
      class={`widget widget-${kind}`}
      style={{ gridColumn: `span ${span}` }}
      aria-label={title}
      aria-busy={busy ? 'true' : undefined}
      data-widget-id={widget.id}
    >
      {title ? <h2 class="widget-title">{title}</h2> : null}
      <div class="widget-body">{children}</div>
    </section>
  );
}
