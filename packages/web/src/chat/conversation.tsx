import { useEffect, useRef } from 'preact/hooks';
import type { Palette } from '../charts/chart-options';
import type { Formatter } from '../lib/format';
import type { ChatItem } from './thread';
import { ToolCall } from './tool-result';

const ERROR_TEXT: Record<string, string> = {
  llm_unavailable: 'The assistant could not be reached.',
  llm_bad_response: 'The assistant gave an answer that could not be read.',
  tool_rounds_exceeded: 'The assistant needed too many steps to answer.',
  thread_busy: 'Another answer of this conversation is still being written.',
  thread_full: 'This conversation is full: start a new one.',
};

interface Props {
  items: ChatItem[];
  busy: boolean;
  format: Formatter;
  palette: Palette;
  onRetry: (() => void) | undefined;
}

/**
 * The messages, in a polite live region: assistive technology reads each answer once it is
 * complete (the log is busy while it streams), not every piece of it as it arrives.
 */
export function Conversation({ items, busy, format, palette, onRetry }: Props) {
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [items]);
  let lastError = -1;
  items.forEach((item, index) => {
    if (item.kind === 'error') lastError = index;
  });
  return (
    <div class="chat-log" role="log" aria-live="polite" aria-busy={busy ? 'true' : 'false'} aria-label="Conversation" data-chat-log="">
      {items.length === 0 ? (
        <p class="muted chat-empty">Ask a question about your data, for example “What are my sales by month?”</p>
      ) : null}
      {items.map((item, index) => {
        switch (item.kind) {
          case 'user':
            return (
              <div key={item.id} class="chat-message chat-user" data-chat-message="user">
                <span class="visually-hidden">You: </span>
                {item.text}
              </div>
            );
          case 'text':
            return item.text ? (
              <div key={item.id} class="chat-message chat-assistant" data-chat-message="assistant" data-done={item.done ? 'true' : 'false'}>
                <span class="visually-hidden">Assistant: </span>
                {item.text}
              </div>
            ) : null;
          case 'tool':
            return (
              <div key={item.id} class="chat-message chat-tool-call">
                <ToolCall
                  name={item.name}
                  done={item.done}
                  format={format}
                  palette={palette}
                  {...(item.output ? { output: item.output } : {})}
                />
              </div>
            );
          case 'error':
            return (
              <div key={item.id} class="chat-message chat-error" role="alert" data-chat-error={item.code}>
                <p>{ERROR_TEXT[item.code] ?? item.message}</p>
                {ERROR_TEXT[item.code] && item.message ? <p class="muted">{item.message}</p> : null}
                {index === lastError && onRetry && item.code !== 'thread_full' ? (
                  <button type="button" class="button" onClick={onRetry} disabled={busy} data-chat-retry="">
                    Try again
                  </button>
                ) : null}
              </div>
            );
        }
      })}
      {busy ? (
        <p class="chat-progress muted">
          <span class="spinner" aria-hidden="true" /> Answering…
        </p>
      ) : null}
      <div ref={end} />
    </div>
  );
}
