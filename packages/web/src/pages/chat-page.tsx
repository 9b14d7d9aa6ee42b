import { ChatSlot } from '../chat/chat-slot';
import { readParams } from '../lib/params';
import { useSession } from '../session/use-session';
import { Expired, Failed, Opening } from './states';
import { applyTheme } from './theme';

/** The standalone analytics chat (`/embed/chat?sessionId=…`): the session, then the chat slot round two fills. */
export default function ChatPage() {
  const state = useSession('sessionId');
  if (state.status === 'opening') return <Opening />;
  if (state.status === 'expired') return <Expired />;
  if (state.status === 'error') return <Failed message={state.message} />;
  applyTheme(readParams().theme, { embed: state.session.claims.embedTheme });
  return (
    <main class="page page-chat">
      <h1 class="visually-hidden">Analytics chat</h1>
      <ChatSlot session={state.session} />
    </main>
  );
}
