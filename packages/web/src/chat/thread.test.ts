import { describe, expect, it } from 'vitest';
import type { ChatLine } from './stream';
import { applyLine, itemsOf, settle } from './thread';

const cutoff: ChatLine = { id: '__cutoff__', role: 'assistant', state: { chatId: 'c', isStreaming: true } };
const user: ChatLine = { id: '1717500000000-message', role: 'user', content: 'Orders?', isDelta: false };
const delta = (content: string, id = 'a1'): ChatLine => ({ id, role: 'assistant', content, isDelta: true, isInProcess: true });
const output = {
  query: { measures: ['sales.count'] },
  data: [{ 'sales.count': 3 }],
  annotation: {},
  chart: { type: 'number', x: null, y: ['sales.count'] },
};

describe('the chat conversation built from stream lines', () => {
  it('grows the answer from its deltas, then takes the final text; a tool call is replaced by its result', () => {
    const started = [cutoff, user, delta('The '), delta('UK')].reduce(applyLine, []);
    expect(started).toEqual([
      { kind: 'user', id: user.id, text: 'Orders?' },
      { kind: 'text', id: 'a1', text: 'The UK', done: false },
    ]);
    const call: ChatLine = { id: 'call_1', role: 'assistant', toolCall: { name: 'cubeQuery', input: '{}' }, isInProcess: true };
    const running = applyLine(started, call);
    expect(running.at(-1)).toEqual({ kind: 'tool', id: 'call_1', name: 'cubeQuery', input: '{}', done: false });
    const done = applyLine(running, { ...call, toolCall: { name: 'cubeQuery', input: '{}', result: '{}', output } });
    expect(done).toHaveLength(3);
    expect(done.at(-1)).toMatchObject({ kind: 'tool', id: 'call_1', output, done: true });
    const final = applyLine(done, { id: 'a1', role: 'assistant', content: 'The UK leads.', graphPath: ['final'], isDelta: false });
    expect(final[1]).toEqual({ kind: 'text', id: 'a1', text: 'The UK leads.', done: true });
    expect(applyLine(final, { id: '__state__', role: 'assistant', state: { isStreaming: false } })).toBe(final);
  });

  it('an error line becomes an error with its code; an unfinished answer is settled when the stream ends', () => {
    const items = [user, delta('Half')].reduce(applyLine, []);
    const failed = applyLine(items, { error: 'The LLM endpoint could not be reached', code: 'llm_unavailable' });
    expect(failed.at(-1)).toMatchObject({ kind: 'error', code: 'llm_unavailable', message: 'The LLM endpoint could not be reached' });
    expect(settle(failed)[1]).toEqual({ kind: 'text', id: 'a1', text: 'Half', done: true });
  });

  it('a reopened thread’s stored lines give the same conversation', () => {
    const stored: ChatLine[] = [user, { id: 'a2', role: 'assistant', content: 'Three.', graphPath: ['final'], isDelta: false }];
    expect(itemsOf(stored)).toEqual([
      { kind: 'user', id: user.id, text: 'Orders?' },
      { kind: 'text', id: 'a2', text: 'Three.', done: true },
    ]);
  });
});
