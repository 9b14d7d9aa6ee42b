import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiStandIn, type OpenAiStandIn } from '../../test-support/openai-stand-in.js';
import { describeOnStores } from '../../test-support/server.js';
import { dataDirOverride } from '../data-api/test-fixtures.js';
import { chatIdOf, chatSetup, errorOf, finalAnswer, salesQuery, toolResults } from './test-fixtures.js';

const BY_COUNTRY = { measures: ['sales.count'], dimensions: ['sales.customers_country'], order: { 'sales.customers_country': 'asc' } };

describeOnStores(
  'analytics chat',
  (server) => {
    let llm: OpenAiStandIn;
    beforeAll(async () => {
      llm = await startOpenAiStandIn();
    });
    afterAll(async () => {
      await llm.close();
    });

    it('answers with text, a table and a chart from the data API rows, streamed as NDJSON in Cube’s shape', async () => {
      const chat = await chatSetup(server(), llm);
      const token = await chat.token('ann', 'UK');
      llm.script(salesQuery(BY_COUNTRY), { text: 'The UK has the most orders.' });
      const before = llm.requests.length;
      const answer = await chat.ask(token, { input: 'Orders by country?', messageId: '1717500000000-message' });
      expect(answer.status, answer.response.text).toBe(200);
      expect(answer.response.headers['content-type']).toMatch(/^application\/x-ndjson/);
      const { lines } = answer;
      expect(lines[0]).toMatchObject({ id: '__cutoff__', state: { chatId: expect.any(String), isStreaming: true, agentId: chat.agentId } });
      expect(lines[1]).toEqual({ id: '1717500000000-message', role: 'user', content: 'Orders by country?', isDelta: false, sort: 1 });
      expect(lines.at(-1)).toMatchObject({ id: '__state__', state: { chatId: chatIdOf(lines), isStreaming: false } });
      expect(errorOf(lines)).toBeUndefined();

      const [tool] = toolResults(lines);
      expect(tool.toolCall.name).toBe('cubeQuery');
      expect(JSON.parse(tool.toolCall.result)).toEqual(tool.toolCall.output);
      const output = tool.toolCall.output;
      expect(output.chart).toEqual({ type: 'bar', x: 'sales.customers_country', y: ['sales.count'] });
      expect(output.query).toMatchObject({ ...BY_COUNTRY, limit: 100 });
      expect(output.data.map((r: any) => r['sales.customers_country'])).toEqual(['UK']);
      expect(Number(output.data[0]['sales.count'])).toBeGreaterThan(0);
      expect(output.annotation.measures['sales.count']).toBeDefined();

      // Streamed deltas, then the whole answer as the final line.
      const deltas = lines.filter((l) => l.isDelta && l.role === 'assistant').map((l) => l.content);
      expect(deltas.join('')).toBe('The UK has the most orders.');
      expect(finalAnswer(lines)).toMatchObject({ content: 'The UK has the most orders.', isDelta: false, isInProcess: false });

      // The model got the user's views as tools and context, with the key, and the tool result back.
      const [first, second] = llm.requests.slice(before);
      expect(first!.headers.authorization).toBe('Bearer sk-stand-in');
      expect(first!.body).toMatchObject({ model: 'stand-in-model', stream: true });
      expect(first!.body.tools.map((t: any) => t.function.name)).toEqual(['cubeMeta', 'cubeQuery']);
      expect(first!.body.messages[0].content).toContain('sales.customers_country');
      expect(first!.body.messages[0].content).not.toContain('customers.email');
      expect(second!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: tool.toolCall.result });
    });

    it('two embed users with different row policies asking the same question get their own rows', async () => {
      const chat = await chatSetup(server(), llm);
      const countries: string[][] = [];
      for (const [user, country] of [
        ['ann', 'UK'],
        ['bob', 'USA'],
      ] as const) {
        llm.script(salesQuery(BY_COUNTRY), { text: 'Here.' });
        const { lines } = await chat.ask(await chat.token(user, country), { input: 'Orders by country?' });
        countries.push(toolResults(lines)[0].toolCall.output.data.map((r: any) => r['sales.customers_country']));
      }
      expect(countries).toEqual([['UK'], ['USA']]);
    });

    it('a tool call reaching rows or views the user may not see does not: other rows are filtered out, other views refused to the model', async () => {
      const chat = await chatSetup(server(), llm);
      const token = await chat.token('ann', 'UK');
      const usa = { ...BY_COUNTRY, filters: [{ member: 'sales.customers_country', operator: 'equals', values: ['USA'] }] };
      llm.script(
        salesQuery(usa),
        { toolCalls: [{ name: 'cubeQuery', arguments: { query: { measures: ['orders.count'], dimensions: ['customers.email'] } } }] },
        { text: 'I cannot see that.' },
      );
      const before = llm.requests.length;
      const { lines } = await chat.ask(token, { input: 'Orders of the USA, and customer e-mails?' });
      const [rows, refused] = toolResults(lines);
      expect(rows.toolCall.output.data).toEqual([]);
      expect(refused.toolCall.output).toEqual({
        error: 'Not allowed: orders.count, customers.email are not in a view this agent may query (sales)',
      });
      expect(llm.requests[before + 2]!.body.messages.at(-1).content).toContain('Not allowed: orders.count');
      expect(finalAnswer(lines).content).toBe('I cannot see that.');
    });

    it('keeps threads per user: another user, also of another embed tenant, cannot read or continue one (404)', async () => {
      const chat = await chatSetup(server(), llm);
      const ann = await chat.token('ann', 'UK');
      llm.script({ text: 'Hello Ann.' });
      const chatId = chatIdOf((await chat.ask(ann, { input: 'Hi' })).lines);
      llm.script({ text: 'Again.' });
      const again = await chat.ask(ann, { input: 'And again', chatId });
      expect(chatIdOf(again.lines)).toBe(chatId);
      expect(again.lines.at(-1).state.messages.map((m: any) => m.content)).toEqual(['Hi', 'Hello Ann.', 'And again', 'Again.']);
      // The model was given the thread so far.
      expect(
        llm.requests
          .at(-1)!
          .body.messages.slice(1)
          .map((m: any) => m.content),
      ).toEqual(['Hi', 'Hello Ann.', 'And again']);

      const listed = await chat.account.request({ method: 'GET', url: '/api/v1/chat/threads', as: ann });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.threads).toEqual([
        expect.objectContaining({ chatId, title: 'Hi', deploymentId: chat.deploymentId, agentId: chat.agentId }),
      ]);
      const read = await chat.account.request({ method: 'GET', url: `/api/v1/chat/threads/${chatId}`, as: ann });
      expect(read.body).toMatchObject({ chatId, isStreaming: false });
      expect(read.body.messages).toHaveLength(4);

      const requests = llm.requests.length;
      for (const other of [await chat.token('bob', 'UK'), await chat.token('ann', 'UK', { embedTenantName: 'other-tenant' })]) {
        expect((await chat.account.request({ method: 'GET', url: `/api/v1/chat/threads/${chatId}`, as: other })).status).toBe(404);
        expect((await chat.account.request({ method: 'GET', url: '/api/v1/chat/threads', as: other })).body).toEqual({ threads: [] });
        const continued = await chat.ask(other, { input: 'Let me in', chatId });
        expect([continued.status, continued.response.body.error]).toEqual([404, `Chat thread ${chatId} not found`]);
      }
      expect(llm.requests.length).toBe(requests);

      // An admin's API key reads a user's threads by naming them.
      const byKey = await chat.account.request({ method: 'GET', url: '/api/v1/chat/threads?externalId=ann', as: chat.account.admin });
      expect(byKey.body.threads.map((t: any) => t.chatId)).toEqual([chatId]);
      const member = await chat.account.request({ method: 'GET', url: '/api/v1/chat/threads?externalId=ann', as: chat.account.member });
      expect(member.status).toBe(403);
    });

    it('a repeated messageId replays its turn instead of asking the LLM again', async () => {
      const chat = await chatSetup(server(), llm);
      const token = await chat.token('ann', 'UK');
      llm.script({ text: 'Once.' });
      const body = { input: 'Only once?', messageId: '1717500000123-message' };
      const first = await chat.ask(token, body);
      const requests = llm.requests.length;
      const repeat = await chat.ask(token, body);
      expect(llm.requests.length).toBe(requests);
      expect(chatIdOf(repeat.lines)).toBe(chatIdOf(first.lines));
      expect(finalAnswer(repeat.lines).content).toBe('Once.');
      expect(repeat.lines.at(-1).state.messages).toHaveLength(2);
    });

    it('while a turn streams, another message of the thread is refused (thread_busy) and a retry of the same messageId follows it', async () => {
      const chat = await chatSetup(server(), llm);
      const token = await chat.token('ann', 'UK');
      llm.script({ text: 'First.' });
      const chatId = chatIdOf((await chat.ask(token, { input: 'One' })).lines);
      let release!: () => void;
      llm.script({ text: 'Slow answer.', hold: new Promise<void>((resolve) => (release = resolve)) });
      const asked = llm.requests.length;
      const body = { input: 'Two', chatId, messageId: '1717500000999-message' };
      const slow = chat.ask(token, body);
      await expect.poll(() => llm.requests.length).toBe(asked + 1);
      const busy = await chat.ask(token, { input: 'Three', chatId });
      expect(errorOf(busy.lines)).toEqual({ code: 'thread_busy', error: 'Streaming for thread is in progress' });
      const retry = chat.ask(token, body);
      release();
      const [first, again] = await Promise.all([slow, retry]);
      expect(finalAnswer(first.lines).content).toBe('Slow answer.');
      expect(finalAnswer(again.lines).content).toBe('Slow answer.');
      expect(llm.requests.length).toBe(asked + 1);
      expect(again.lines.at(-1).state.messages.map((m: any) => m.content)).toEqual(['One', 'First.', 'Two', 'Slow answer.']);
    });

    it('with no LLM endpoint, or no agent embedded users may use, answers the chat_not_configured line', async () => {
      const chat = await chatSetup(server(), llm, { agentLlmId: null });
      const token = await chat.token('ann', 'UK');
      const asked = await chat.ask(token, { input: 'Anything?' });
      expect(asked.status).toBe(200);
      expect(errorOf(asked.lines)).toEqual({
        code: 'chat_not_configured',
        error: expect.stringMatching(/^The chat is not configured: agent \d+ has no LLM endpoint/),
      });
      expect(asked.lines.at(-1)).toMatchObject({ id: '__state__', state: { chatId: null, messages: [] } });

      const probe = await chat.ask(token, {}, `/api/v1/deployments/${chat.deploymentId}/chat/stream-chat-state`);
      expect(errorOf(probe.lines)?.code).toBe('chat_not_configured');
      const noAgent = await chatSetup(server(), llm, { allowEmbedding: false });
      const none = await noAgent.ask(
        await noAgent.token('ann', 'UK'),
        { input: 'Hi' },
        `/api/v1/deployments/${noAgent.deploymentId}/chat/stream-chat-state`,
      );
      expect(errorOf(none.lines)).toMatchObject({
        code: 'chat_not_configured',
        error: expect.stringMatching(/no agent that embedded pages may use/),
      });
      expect((await noAgent.ask(await noAgent.token('ann', 'UK'), { input: 'Hi' })).status).toBe(404);
    });

    it('an LLM endpoint that is down or answers garbage gives an error line, never a 500', async () => {
      const down = await startOpenAiStandIn();
      await down.close();
      const chat = await chatSetup(server(), down);
      const token = await chat.token('ann', 'UK');
      const unreachable = await chat.ask(token, { input: 'Hi' });
      expect(unreachable.status).toBe(200);
      expect(errorOf(unreachable.lines)).toMatchObject({
        code: 'llm_unavailable',
        error: expect.stringMatching(/^The LLM endpoint could not be reached/),
      });
      expect(unreachable.lines.at(-1).id).toBe('__state__');

      const garbage = await chatSetup(server(), llm);
      const ann = await garbage.token('ann', 'UK');
      llm.script({ status: 200, body: '<html>not json</html>', contentType: 'text/html' });
      expect(errorOf((await garbage.ask(ann, { input: 'Hi' })).lines).code).toBe('llm_bad_response');
      llm.script({ status: 200, body: 'data: {"choices": [\n\n', contentType: 'text/event-stream' });
      expect(errorOf((await garbage.ask(ann, { input: 'Hi' })).lines).code).toBe('llm_bad_response');
      llm.script({ status: 502, body: 'upstream gone' });
      expect(errorOf((await garbage.ask(ann, { input: 'Hi' })).lines)).toMatchObject({
        code: 'llm_unavailable',
        error: 'The LLM endpoint answered HTTP 502: upstream gone',
      });
      // The model looping on tools is cut at the bound.
      for (let i = 0; i < 6; i++) llm.script({ toolCalls: [{ name: 'cubeMeta', arguments: {} }] });
      expect(errorOf((await garbage.ask(ann, { input: 'Loop' })).lines).code).toBe('tool_rounds_exceeded');
    });

    it('refuses what it cannot take with messages naming it: limits, sessionSettings that change the token, a missing user', async () => {
      const chat = await chatSetup(server(), llm);
      const token = await chat.token('ann', 'UK');
      const long = await chat.ask(token, { input: 'x'.repeat(4001) });
      expect(long.status).toBe(400);
      expect(long.response.body.error).toMatch(/input/);
      const badId = await chat.ask(token, { input: 'Hi', messageId: '123-message' });
      expect([badId.status, badId.response.text]).toEqual([400, expect.stringMatching(/messageId/)]);
      for (const [field, value] of [
        ['groups', ['admin']],
        ['userAttributes', [{ name: 'country', value: 'USA' }]],
        ['externalId', 'bob'],
        ['securityContext', { tenant: 'x' }],
      ] as const) {
        const changed = await chat.ask(token, { input: 'Hi', sessionSettings: { [field]: value } });
        expect([changed.status, changed.response.body.error]).toEqual([
          403,
          expect.stringMatching(new RegExp(`^sessionSettings\\.${field} cannot be changed`)),
        ]);
      }
      // Repeating what the token says is fine (Cube's clients send it).
      llm.script({ text: 'ok' });
      expect((await chat.ask(token, { input: 'Hi', sessionSettings: { externalId: 'ANN', groups: ['regional'] } })).status).toBe(200);
      const noUser = await chat.ask(chat.account.admin, { input: 'Hi' });
      expect([noUser.status, noUser.response.body.error]).toEqual([
        400,
        'sessionSettings.externalId or sessionSettings.internalId is required with an API key',
      ]);
    });

    it('an API key names the user in sessionSettings, as Cube’s server-to-server API, and the chat runs under that user’s policies', async () => {
      const chat = await chatSetup(server(), llm);
      llm.script(salesQuery(BY_COUNTRY), { text: 'USA.' });
      const sessionSettings = { externalId: 'carol', groups: ['regional'], userAttributes: [{ name: 'country', value: 'USA' }] };
      const asked = await chat.ask(chat.account.admin, { input: 'Orders by country?', sessionSettings });
      expect(asked.status, asked.response.text).toBe(200);
      expect(toolResults(asked.lines)[0].toolCall.output.data.map((r: any) => r['sales.customers_country'])).toEqual(['USA']);
      const carol = await chat.token('carol', 'USA');
      const listed = await chat.account.request({ method: 'GET', url: '/api/v1/chat/threads', as: carol });
      expect(listed.body.threads.map((t: any) => t.chatId)).toEqual([chatIdOf(asked.lines)]);
      const deploymentForm = await chat.ask(
        chat.account.admin,
        { input: 'Hi', sessionSettings },
        `/api/v1/deployments/${chat.deploymentId}/chat/stream-chat-state`,
      );
      expect([deploymentForm.status, deploymentForm.response.body.error]).toEqual([
        403,
        expect.stringMatching(/^agentId is required for Api-Key authentication/),
      ]);
      expect((await chat.ask(chat.account.member, { input: 'Hi', sessionSettings })).status).toBe(403);
    });
  },
  dataDirOverride(),
);

describe('the stand-in', () => {
  it('answers one JSON completion when told not to stream', async () => {
    const llm = await startOpenAiStandIn({ sse: false });
    llm.script({ text: 'plain' });
    const response = await fetch(`${llm.baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [] }),
    });
    expect(((await response.json()) as any).choices[0].message.content).toBe('plain');
    await llm.close();
  });
});
