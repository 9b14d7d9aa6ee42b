import { useEffect, useRef } from 'preact/hooks';
import type { EmbedSession } from '../session/session';
import { ChatSlot } from './chat-slot';

/** The launcher bubble and the side panel it opens on the dashboard page. */
export function ChatLauncher({
  session,
  publicDashboardId,
  open,
  setOpen,
  question,
}: {
  session: EmbedSession;
  publicDashboardId: string;
  open: boolean;
  setOpen(open: boolean): void;
  question?: string | undefined;
}) {
  // Closing the panel returns focus to the launcher, so keyboard users are not left on nothing.
  const launcher = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) launcher.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return (
    <>
      {open ? (
        <aside class="chat-panel" id="chat-panel" aria-label="Analytics chat" data-chat-panel="">
          <div class="chat-panel-header">
            <h2 class="widget-title">Analytics chat</h2>
            <button type="button" class="icon-button" aria-label="Close the chat" onClick={() => setOpen(false)}>
              <span aria-hidden="true">×</span>
            </button>
          </div>
          <ChatSlot
            session={session}
            publicDashboardId={publicDashboardId}
            onClose={() => setOpen(false)}
            {...(question ? { question } : {})}
          />
        </aside>
      ) : null}
      <button
        type="button"
        ref={launcher}
        class="chat-launcher"
        aria-label={open ? 'Close the analytics chat' : 'Open the analytics chat'}
        aria-expanded={open ? 'true' : 'false'}
        aria-controls="chat-panel"
        data-chat-launcher=""
        onClick={() => setOpen(!open)}
      >
        <svg
          aria-hidden="true"
          width="24"
          height="24"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          stroke-width="2"
          stroke-linejoin="round"
        >
          <path d="M4 5h16v11H9l-5 4z" />
        </svg>
      </button>
    </>
  );
}
