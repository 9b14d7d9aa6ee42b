import type { ChatLine, ToolOutput } from './stream';

/** What the conversation shows, one entry per message of the thread. */
export type ChatItem =
  | { kind: 'user'; id: string; text: string }
  | { kind: 'text'; id: string; text: string; done: boolean }
  | { kind: 'tool'; id: string; name: string; input: string; output?: ToolOutput; done: boolean }
  | { kind: 'error'; id: string; code: string; message: string };

/** The error codes after which asking again may work (the others say why it will not). */
export const NOT_CONFIGURED = 'chat_not_configured';

let errors = 0;

/**
 * The conversation after one more line of the stream. Deltas and the final answer share an id
 * (the answer replaces the text its deltas built); a tool call's second line, with its result,
 * replaces its first. Lines of the same id are updated in place so the list does not jump.
 */
export function applyLine(items: ChatItem[], line: ChatLine): ChatItem[] {
  if (line.error !== undefined) {
    return [...items, { kind: 'error', id: `error-${++errors}`, code: line.code ?? 'internal_error', message: line.error }];
  }
  if (line.id === '__cutoff__' || line.id === '__state__' || !line.role) return items;
  const id = line.id ?? `line-${items.length}`;
  const at = items.findIndex((item) => item.id === id);
  const put = (item: ChatItem) => (at >= 0 ? items.map((old, i) => (i === at ? item : old)) : [...items, item]);
  if (line.role === 'user') return put({ kind: 'user', id, text: line.content ?? '' });
  if (line.toolCall) {
    const { name, input, output, result } = line.toolCall;
    return put({ kind: 'tool', id, name, input, ...(output ? { output } : {}), done: result !== undefined });
  }
  if (typeof line.content !== 'string') return items;
  if (line.isDelta) {
    const old = at >= 0 ? items[at] : undefined;
    const text = (old?.kind === 'text' ? old.text : '') + line.content;
    return put({ kind: 'text', id, text, done: false });
  }
  return put({ kind: 'text', id, text: line.content, done: true });
}

/** The conversation of stored lines (a thread reopened): the same rules as the stream. */
export const itemsOf = (lines: ChatLine[]): ChatItem[] => lines.reduce(applyLine, [] as ChatItem[]);

/** Text of a finished turn that never came to an end (the stream broke): no longer shown as in progress. */
export const settle = (items: ChatItem[]): ChatItem[] =>
  items.map((item) => ((item.kind === 'text' || item.kind === 'tool') && !item.done ? { ...item, done: true } : item));
