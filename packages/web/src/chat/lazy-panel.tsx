import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ChatPanelProps } from './chat-slot';

let loaded: ComponentType<ChatPanelProps> | null = null;

/**
 * The chat panel, fetched as its own chunk the first time it is shown: the dashboard page pays
 * for the chat only when the viewer opens it.
 */
export function LazyChatPanel(props: ChatPanelProps) {
  const [Panel, setPanel] = useState(() => loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (Panel) return;
    import('./chat-panel').then(
      (module) => {
        loaded = module.default;
        setPanel(() => module.default);
      },
      () => setFailed(true),
    );
  }, []);
  if (Panel) return <Panel {...props} />;
  return (
    <div role="status" class="chat-placeholder" data-chat-slot="loading">
      {failed ? 'The chat could not be loaded. Reload the page to try again.' : 'Loading the chat…'}
    </div>
  );
}
