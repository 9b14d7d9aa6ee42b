import { useEffect } from 'preact/hooks';
import { ChatSlot } from '../chat/chat-slot';
import { host } from '../lib/host';
import { readParams } from '../lib/params';
import { useSession } from '../session/use-session';
import { Expired, Failed, Opening } from './states';
import { applyTheme } from './theme';
import { useHostTheme } from './use-host-theme';

/** The standalone analytics chat (`/embed/chat?sessionId=…`): the session, then the chat slot. */
export default function ChatPage() {
  const state = useSession('sessionId');
  const theme = useHostTheme();
  const ready = state.status === 'ready';
  useEffect(() => {
    if (ready) host.loaded({ page: 'chat' });
  }, [ready]);
  if (state.status === 'opening') return <Opening />;
  if (state.status === 'expired') return <Expired />;
  if (state.status === 'error') return <Failed message={state.message} />;
  applyTheme(theme.mode ?? readParams().theme, state.session.claims.embedTheme, theme.overrides);
  return (
    <main class="page page-chat">
      <h1 class="visually-hidden">Analytics chat</h1>
      <ChatSlot session={state.session} />
    </main>
  );
}
