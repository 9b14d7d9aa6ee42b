import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { formatter } from '../lib/format';
import { readParams } from '../lib/params';
import { currentPalette } from '../pages/theme';
import type { ChatPanelProps } from './chat-slot';
import { Conversation } from './conversation';
import { newMessageId, streamChat } from './stream';
import { ThreadList } from './thread-list';
import { applyLine, NOT_CONFIGURED, settle, type ChatItem } from './thread';

type Status = 'probing' | 'ready' | 'busy' | 'not-configured';

let errorIds = 0;
const failure = (message: string, code = 'network'): ChatItem => ({ kind: 'error', id: `failed-${++errorIds}`, code, message });

/**
 * The analytics chat: a question goes to the deployment's chat as the embed user, and the answer
 * streams in (text growing, each tool call's progress, query results as a chart and a table).
 * The thread's id is kept so a follow-up continues it. When the panel opens it probes the chat
 * (an empty request) so an account without a chat says so before anyone types.
 */
export default function ChatPanel({ session, publicDashboardId, onClose, question }: ChatPanelProps) {
  const format = useMemo(() => formatter(readParams().locale), []);
  const palette = useMemo(() => currentPalette(), []);
  const [status, setStatus] = useState<Status>('probing');
  const [items, setItems] = useState<ChatItem[]>([]);
  const [chatId, setChatId] = useState<string | undefined>();
  const [draft, setDraft] = useState(question ?? '');
  const [lastQuestion, setLastQuestion] = useState('');
  const [threadsVersion, setThreadsVersion] = useState(0);
  const input = useRef<HTMLTextAreaElement>(null);
  const notice = useRef<HTMLParagraphElement>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    input.current?.focus();
    const controller = new AbortController();
    abort.current = controller;
    let configured = true;
    streamChat(
      session,
      {},
      (line) => {
        if (line.code === NOT_CONFIGURED) configured = false;
      },
      controller.signal,
    ).then(
      () => setStatus((now) => (now === 'probing' ? (configured ? 'ready' : 'not-configured') : now)),
      // The probe failing says nothing of the chat: asking shows the reason, with a retry.
      () => setStatus((now) => (now === 'probing' ? 'ready' : now)),
    );
    return () => controller.abort();
  }, [session]);

  useEffect(() => {
    if (status === 'not-configured') notice.current?.focus();
  }, [status]);
  useEffect(() => {
    if (question) setDraft(question);
  }, [question]);

  async function ask(text: string) {
    const trimmed = text.trim();
    if (!trimmed || status === 'busy' || status === 'not-configured') return;
    const messageId = newMessageId();
    setStatus('busy');
    setLastQuestion(trimmed);
    setDraft('');
    setItems((now) => [...now, { kind: 'user', id: messageId, text: trimmed }]);
    const controller = new AbortController();
    abort.current = controller;
    let next = 'ready' as Status;
    try {
      await streamChat(
        session,
        { input: trimmed, messageId, ...(chatId ? { chatId } : {}) },
        (line) => {
          if (line.id === '__cutoff__' && line.state?.chatId) setChatId(line.state.chatId);
          if (line.code === NOT_CONFIGURED) next = 'not-configured';
          setItems((now) => applyLine(now, line));
        },
        controller.signal,
      );
    } catch (error) {
      if (!controller.signal.aborted) setItems((now) => [...now, failure((error as Error).message || 'The chat could not be reached.')]);
    }
    setItems(settle);
    setStatus(next);
    setThreadsVersion((v) => v + 1);
    if (next !== 'not-configured') input.current?.focus();
  }

  function open(id: string | undefined, opened: ChatItem[]) {
    abort.current?.abort();
    setChatId(id);
    setItems(opened);
    setStatus('ready');
    input.current?.focus();
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && onClose) {
      event.preventDefault();
      onClose();
    }
  };
  const standalone = publicDashboardId === undefined;

  return (
    <div class={standalone ? 'chat chat-standalone' : 'chat'} data-chat-slot="chat" data-chat-state={status} onKeyDown={onKeyDown}>
      {standalone && status !== 'not-configured' ? (
        <ThreadList session={session} current={chatId} version={threadsVersion} onOpen={open} />
      ) : null}
      <div class="chat-main">
        {status === 'not-configured' ? (
          <p class="chat-notice" data-chat-notice="not-configured" tabIndex={-1} ref={notice}>
            The analytics chat is not set up for this account. An administrator can set it up by giving an agent an LLM endpoint and
            allowing it in embedded pages.
          </p>
        ) : null}
        <Conversation
          items={items}
          busy={status === 'busy'}
          format={format}
          palette={palette}
          onRetry={lastQuestion ? () => void ask(lastQuestion) : undefined}
        />
        {status === 'not-configured' ? null : (
          <form
            class="chat-form"
            onSubmit={(event) => {
              event.preventDefault();
              void ask(draft);
            }}
          >
            <label for="chat-input" class="chat-label">
              Ask a question about your data
            </label>
            <div class="chat-input-row">
              <textarea
                id="chat-input"
                ref={input}
                rows={2}
                maxLength={4000}
                value={draft}
                onInput={(event) => setDraft((event.target as HTMLTextAreaElement).value)}
                onKeyDown={(event) => {
                  // Enter sends, as in every chat; Shift+Enter starts a new line.
                  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
                    event.preventDefault();
                    void ask(draft);
                  }
                }}
              />
              <button type="submit" class="button button-primary" disabled={status === 'busy'} data-chat-send="">
                Send
              </button>
            </div>
          </form>
        )}
      </div>
    </div>
  );
}
