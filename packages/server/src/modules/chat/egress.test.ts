import { afterAll, beforeAll, expect, it } from 'vitest';
import { startOpenAiStandIn, type OpenAiStandIn } from '../../test-support/openai-stand-in.js';
import { describeOnStores } from '../../test-support/server.js';
import { dataDirOverride } from '../data-api/test-fixtures.js';
import { chatSetup, errorOf } from './test-fixtures.js';

/**
 * The LLM endpoint's URL is the tenant's: the runtime's calls go through the egress policy like
 * every outbound request. Here the policy allows no local address, so an endpoint stored at one
 * (as if saved before the policy changed) is refused at the call, and the stand-in is never reached.
 */
describeOnStores(
  'chat egress',
  (server) => {
    let llm: OpenAiStandIn;
    beforeAll(async () => {
      llm = await startOpenAiStandIn();
    });
    afterAll(async () => {
      await llm.close();
    });

    it('an LLM endpoint the egress policy does not allow is refused as llm_unavailable, and never called', async () => {
      const chat = await chatSetup(server(), llm, {}, true);
      const { lines, status } = await chat.ask(await chat.token('ann', 'UK'), { input: 'Hi' });
      expect(status).toBe(200);
      expect(errorOf(lines)).toMatchObject({ code: 'llm_unavailable', error: expect.stringMatching(/^The LLM endpoint is not allowed: /) });
      expect(llm.requests).toEqual([]);
    });
  },
  { ...dataDirOverride(), PLINTH_EGRESS_ALLOW: '' },
);
