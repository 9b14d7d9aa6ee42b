import { useDashboard } from '../context';
import { stringOf, type Widget } from '../model';
import { WidgetFrame } from './widget-frame';

/** An entry to the analytics chat: it opens the chat panel, or says the chat is off for this session. */
export function AiWidget({ widget }: { widget: Widget }) {
  const { openChat } = useDashboard();
  const title = stringOf(widget.config?.title) ?? 'Ask about this data';
  // A question the dashboard's author suggests (config `question` or `prompt`), pre-filled in the chat.
  const question = stringOf(widget.config?.question) ?? stringOf(widget.config?.prompt);
  return (
    <WidgetFrame widget={widget} title={title} kind="ai">
      {openChat ? (
        <button type="button" class="button button-primary" onClick={() => openChat(question)}>
          Open the analytics chat
        </button>
      ) : (
        <p class="muted">The analytics chat is turned off for this dashboard.</p>
      )}
    </WidgetFrame>
  );
}
