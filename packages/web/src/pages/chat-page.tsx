import { ChatSlot } from '../chat/chat-slot';
import { useSession } from '../session/use-session';
import { Expired, Failed, Opening } from './states';
import { AccountTheme } from './account-theme';

/** The standalone analytics chat (`/embed/chat?sessionId=…`): the session, then the chat slot round two fills. */
export default function ChatPage() {
  const state = useSession('sessionId');
  if (state.status === 'opening') return <Opening />;
  if (state.status === 'expired') return <Expired />;
  if (state.status === 'error') return <Failed message={state.message} />;
  return (
    <main class="page page-chat">
      <h1 class="visually-hidden">Analytics chat</h1>
      <AccountTheme session={state.session} />
      <ChatSlot session={state.session} />
    </main>
  );
}
