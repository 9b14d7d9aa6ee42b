import type { ComponentType } from 'preact';
import type { EmbedSession } from '../session/session';

/** What the chat panel is given: round two's chat UI is a component of this shape. */
export interface ChatPanelProps {
  session: EmbedSession;
  /** The dashboard it was opened from; absent on the standalone chat page. */
  publicDashboardId?: string;
  onClose?: () => void;
  /** A question to pre-fill (an AI widget's `question`); the viewer still sends it. */
  question?: string;
}

/** The chat UI registered for the pages (main.tsx registers chat/lazy-panel's); until then, none. */
let panel: ComponentType<ChatPanelProps> | null = null;
export const setChatPanel = (component: ComponentType<ChatPanelProps>) => {
  panel = component;
};

/**
 * Where the chat mounts: the dashboard's side panel and the standalone chat page both render this
 * slot, which draws the registered chat UI or says plainly that there is none yet.
 */
export function ChatSlot(props: ChatPanelProps) {
  const Panel = panel;
  if (Panel) return <Panel {...props} />;
  return (
    <div class="chat-placeholder" data-chat-slot="empty">
      <p>The analytics chat is not available on this server yet.</p>
    </div>
  );
}
