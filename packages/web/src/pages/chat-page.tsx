import { useEffect } from 'preact/hooks';
import { ChatSlot } from '../chat/chat-slot';
import { useSession } from '../session/use-session';
import { Expired, Failed, Opening } from './states';
import { AccountTheme } from './account-theme';
import { HostThemeLayer } from './host-theme-layer';
import { host } from '../lib/host';

/** The standalone analytics chat (`/embed/chat?sessionId=…`): the session, then the chat slot. */
export default function ChatPage() {
  const state = useSession('sessionId');
  const ready = state.status === 'ready';
  useEffect(() => {
    if (ready) host.loaded({ page: 'chat' });
  }, [ready]);
  if (state.status === 'opening') return <Opening />;
  if (state.status === 'expired') return <Expired />;
  if (state.status === 'error') return <Failed message={state.message} />;
  return (
    <main class="page page-chat">
      <h1 class="visually-hidden">Analytics chat</h1>
      <AccountTheme session={state.session} />
      <HostThemeLayer session={state.session} />
      <ChatSlot session={state.session} />
    </main>
  );
}
