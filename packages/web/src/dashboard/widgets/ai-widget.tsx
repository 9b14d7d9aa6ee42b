import { useDashboard } from '../context';
import { stringOf, type Widget } from '../model';
import { WidgetFrame } from './widget-frame';

/** An entry to the analytics chat: it opens the chat panel, or says the chat is off for this session. */
export function AiWidget({ widget }: { widget: Widget }) {
  const { openChat } = useDashboard();
  const title = stringOf(widget.config?.title) ?? 'Ask about this data';
  return (
    <WidgetFrame widget={widget} title={title} kind="ai">
      {openChat ? (
        <button type="button" class="button button-primary" onClick={openChat}>
          Open the analytics chat
        </button>
      ) : (
        <p class="muted">The analytics chat is turned off for this dashboard.</p>
      )}
    </WidgetFrame>
  );
}
