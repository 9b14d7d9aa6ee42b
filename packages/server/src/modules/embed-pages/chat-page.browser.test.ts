import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { seriousAxeViolations, useBrowser } from '../../test-support/browser.js';
import { startOpenAiStandIn, type OpenAiStandIn } from '../../test-support/openai-stand-in.js';
import { describeOnStores } from '../../test-support/server.js';
import { chatAgent, salesQuery } from '../chat/test-fixtures.js';
import { embedSite, startHostPage, user, VIEW, type EmbedSite, type HostPage } from './test-fixtures.js';

/**
 * The analytics chat in Chromium, in the iframe of a page on another origin: the standalone page
 * and the dashboard's panel ask the deployment's agent (an LLM stand-in with scripted tool calls),
 * whose queries run as the embedded user.
 */
const browser = useBrowser();
let host: HostPage;
let llm: OpenAiStandIn;
beforeAll(async () => {
  [host, llm] = await Promise.all([startHostPage(), startOpenAiStandIn()]);
});
afterAll(async () => {
  await Promise.all([host?.close(), llm?.close()]);
});

const BY_COUNTRY = { measures: [`${VIEW}.count`], dimensions: [`${VIEW}.customers_country`] };
/** One answered question: the model queries, then writes its answer. */
const scriptAnswer = (query: Record<string, unknown> = BY_COUNTRY, text = 'Here are your orders by country.') =>
  llm.script(salesQuery(query), { text });

/** The embed page in the host page's iframe, `width` pixels wide. */
async function framed(page: Page, src: string, width = 1000): Promise<Frame> {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(host.url(src, width));
  const frame = await (await page.waitForSelector('iframe#embed')).contentFrame();
  if (!frame) throw new Error('the iframe has no frame');
  return frame;
}

/** Types a question, sends it with Enter, and waits until the answer is complete. */
async function ask(frame: Frame, question: string): Promise<void> {
  const ended = '[data-chat-message="assistant"][data-done="true"], [data-chat-error]';
  const before = (await frame.$$(ended)).length;
  await frame.fill('#chat-input', question);
  await frame.press('#chat-input', 'Enter');
  // A function, not a string: the page's CSP allows no eval. It runs in the page (no DOM types here).
  await frame.waitForFunction(
    ([selector, count]) => {
      const document = (globalThis as any).document;
      return document.querySelector('[data-chat-state="ready"]') !== null && document.querySelectorAll(selector).length > count;
    },
    [ended, before] as const,
  );
}

/** The first column of each query result's rows, as its accessible table lists them. */
const resultRows = (frame: Frame) =>
  frame.$$eval('.chat-result', (results) =>
    results.map((r) => [...r.querySelectorAll('figure table tbody tr td:first-child')].map((c) => c.textContent)),
  );

const overflow = (frame: Frame) => frame.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

describeOnStores('the analytics chat in a browser', (server) => {
  let site: EmbedSite;
  let agentId: number;
  const chatUrl = (sessionId: string) => `${site.origin}/embed/chat?${new URLSearchParams({ sessionId }).toString()}`;
  beforeAll(async () => {
    site = await embedSite(server());
    ({ agentId } = await chatAgent(server(), site.account, site.deploymentId, llm, { accessibleViews: [VIEW] }));
  });

  it('the standalone page answers with text, a chart and a table of the user’s own rows, follows up in the same thread, and retries a failed answer', async () => {
    const page = await browser.newPage();
    const posted: any[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/chat/stream-chat-state')) posted.push(JSON.parse(request.postData() ?? '{}'));
    });
    const ann = await framed(page, chatUrl(await site.session(user('ann', 'USA', 'consumer'))));
    await ann.waitForSelector('[data-chat-state="ready"]');
    expect(await ann.getAttribute('[data-chat-log]', 'aria-live')).toBe('polite');
    expect(await ann.textContent('label[for="chat-input"]')).toMatch(/question/i);

    scriptAnswer();
    await ask(ann, 'Orders by country?');
    expect(await ann.textContent('[data-chat-message="assistant"]')).toBe('Assistant: Here are your orders by country.');
    expect(await resultRows(ann)).toEqual([['USA']]);
    expect(await ann.$$('.chat-result [data-drawn="true"] svg path')).not.toHaveLength(0);
    expect(await ann.$$('.chat-result details table tbody tr')).toHaveLength(1);
    expect(await seriousAxeViolations(ann)).toEqual([]);

    // A follow-up keeps the thread; the model asking for another country's rows gets none of them.
    const france = { ...BY_COUNTRY, filters: [{ member: `${VIEW}.customers_country`, operator: 'equals', values: ['France'] }] };
    scriptAnswer(france, 'Nothing for France.');
    await ask(ann, 'And France?');
    expect(await resultRows(ann)).toEqual([['USA'], []]);
    expect(await ann.textContent('.chat-result >> nth=1')).toContain('No rows.');
    expect(posted.map((body) => body.chatId)).toEqual([undefined, undefined, expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(posted[0]).toEqual({});
    await ann.waitForSelector('.chat-threads button.chat-thread[aria-current="true"]');
    expect(await ann.textContent('.chat-threads button.chat-thread')).toContain('Orders by country?');

    // The model unreachable: a message and a retry that asks again.
    llm.script({ status: 500, body: 'down' });
    await ask(ann, 'Orders by country again?');
    await ann.waitForSelector('[data-chat-error="llm_unavailable"] [data-chat-retry]');
    scriptAnswer(BY_COUNTRY, 'Here they are again.');
    await ann.click('[data-chat-retry]');
    await ann.waitForSelector('[data-chat-message="assistant"][data-done="true"]:has-text("Here they are again.")');

    // Another user of another country, the same scripted query: their own rows.
    const bob = await framed(
      await browser.newPage(),
      chatUrl(await site.session(user('bob', 'France', 'corporate', { embedTenantName: 'tenant-bob' }))),
    );
    await bob.waitForSelector('[data-chat-state="ready"]');
    scriptAnswer();
    await ask(bob, 'Orders by country?');
    expect(await resultRows(bob)).toEqual([['France']]);
  });

  it('the dashboard’s panel at phone width: the launcher opens it with focus in the question, answers with the user’s rows, passes axe, and Escape closes it back to the launcher', async () => {
    const frame = await framed(await browser.newPage(), site.dashboardUrl(await site.session(user('ann', 'USA', 'consumer'))), 390);
    await frame.waitForSelector('html[data-dashboard-loaded="true"]');
    const launcher = await frame.waitForSelector('button[data-chat-launcher]');
    expect(await launcher.getAttribute('aria-label')).toMatch(/chat/i);
    await launcher.click();
    await frame.waitForSelector('[data-chat-panel] [data-chat-state="ready"]');
    expect(await frame.evaluate<string | undefined>('document.activeElement?.id')).toBe('chat-input');

    scriptAnswer();
    await ask(frame, 'Orders by country?');
    expect(await resultRows(frame)).toEqual([['USA']]);
    expect(await frame.$$('[data-chat-panel] .chat-result [data-drawn="true"] svg path')).not.toHaveLength(0);
    expect(await overflow(frame)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(frame)).toEqual([]);

    await frame.press('#chat-input', 'Escape');
    await frame.waitForSelector('[data-chat-panel]', { state: 'detached' });
    // The launcher takes focus back in an effect after the panel is gone: wait for it, not for one frame.
    await expect.poll(() => frame.evaluate<boolean>(`document.activeElement?.hasAttribute('data-chat-launcher') === true`)).toBe(true);
  });

  it('with no agent embedded users may use, the standalone page and the panel say the chat is not set up before anyone types', async () => {
    const put = (allowEmbedding: boolean) =>
      site.account.request({
        method: 'PUT',
        url: `/api/v1/deployments/${site.deploymentId}/agents/${agentId}`,
        as: site.account.admin,
        body: { allowEmbedding },
      });
    expect((await put(false)).status).toBe(200);
    try {
      const before = llm.requests.length;
      const standalone = await framed(await browser.newPage(), chatUrl(await site.session(user('ann', 'USA', 'consumer'))));
      const notice = await standalone.waitForSelector('[data-chat-notice="not-configured"]');
      expect(await notice.textContent()).toContain('The analytics chat is not set up for this account');
      expect(await standalone.$('#chat-input')).toBeNull();

      const dashboard = await framed(await browser.newPage(), site.dashboardUrl(await site.session(user('ann', 'USA', 'consumer'))));
      await dashboard.waitForSelector('html[data-dashboard-loaded="true"]');
      await dashboard.click('button[data-chat-launcher]');
      await dashboard.waitForSelector('[data-chat-panel] [data-chat-notice="not-configured"]');
      expect(llm.requests.length).toBe(before);
    } finally {
      expect((await put(true)).status).toBe(200);
    }
  });
});
