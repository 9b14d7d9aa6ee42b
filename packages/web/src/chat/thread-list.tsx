import { useEffect, useState } from 'preact/hooks';
import { apiGet } from '../lib/api';
import type { EmbedSession } from '../session/session';
import type { ChatLine } from './stream';
import { itemsOf, type ChatItem } from './thread';

interface ThreadSummary {
  chatId: string;
  title: string;
  updatedAt: string;
}

interface Props {
  session: EmbedSession;
  current: string | undefined;
  /** Bumped after each answer, so a new thread appears in the list. */
  version: number;
  onOpen(chatId: string | undefined, items: ChatItem[]): void;
}

/** The user's earlier conversations (standalone page): reopening one continues it. */
export function ThreadList({ session, current, version, onOpen }: Props) {
  const [threads, setThreads] = useState<ThreadSummary[]>([]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    apiGet<{ threads: ThreadSummary[] }>(session, '/api/v1/chat/threads', controller.signal).then(
      (answer) => setThreads(answer.threads),
      () => !controller.signal.aborted && setFailed(true),
    );
    return () => controller.abort();
  }, [session, version]);

  async function reopen(chatId: string) {
    try {
      const thread = await apiGet<{ messages: ChatLine[] }>(session, `/api/v1/chat/threads/${encodeURIComponent(chatId)}`);
      onOpen(chatId, itemsOf(thread.messages));
    } catch {
      setFailed(true);
    }
  }

  return (
    <nav class="chat-threads" aria-label="Conversations">
      <button type="button" class="button" onClick={() => onOpen(undefined, [])} data-chat-new="">
        New conversation
      </button>
      {failed ? <p class="muted">Earlier conversations could not be loaded.</p> : null}
      {threads.length ? (
        <ul>
          {threads.map((thread) => (
            <li key={thread.chatId}>
              <button
                type="button"
                class="chat-thread"
                aria-current={thread.chatId === current ? 'true' : undefined}
                onClick={() => void reopen(thread.chatId)}
              >
                {thread.title || 'Untitled conversation'}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </nav>
  );
}
