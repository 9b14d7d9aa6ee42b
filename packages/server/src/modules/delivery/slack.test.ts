import { afterAll, beforeEach, expect, it } from 'vitest';
import { EgressPolicy } from '../../egress/policy.js';
import { startSlackStandIn } from '../../test-support/slack-stand-in.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { DeliveryError, postToSlack } from './public.js';
import { postToSlack as postWith } from './slack.js';

/** Slack messages and uploads against a local server speaking the part of Slack's Web API used. */
const slack = await startSlackStandIn({ channels: ['C0SALES', 'C0OPS'] });
afterAll(() => slack.close());

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as DeliveryError,
  );

describeOnStores(
  'postToSlack',
  (server) => {
    let account: TestAccount;
    beforeEach(async () => {
      account = await server().newAccount();
      await server().services.delivery.slackTokens.set(account.id, account.admin.id, slack.token);
    });

    it('posts the message and uploads the image into the channel', async () => {
      const posted = await postToSlack(server().services, {
        accountId: account.id,
        channelId: 'C0SALES',
        text: 'Sales board: http://acct.plinth.test/embed/dashboard/abc',
        png: PNG,
        filename: 'sales.png',
      });
      expect(slack.messages.find((m) => m.ts === posted.ts)).toEqual({
        channel: 'C0SALES',
        text: 'Sales board: http://acct.plinth.test/embed/dashboard/abc',
        ts: posted.ts,
      });
      const file = slack.files.find((f) => f.id === posted.fileId)!;
      expect({ ...file, bytes: file.bytes.equals(PNG) }).toEqual({
        id: posted.fileId,
        filename: 'sales.png',
        title: 'sales.png',
        channel: 'C0SALES',
        bytes: true,
      });
      // Without an image: the message alone.
      const plain = await postToSlack(server().services, { accountId: account.id, channelId: 'C0OPS', text: 'No image' });
      expect(plain.fileId).toBeUndefined();
      expect(slack.messages.at(-1)).toMatchObject({ channel: 'C0OPS', text: 'No image' });
    });

    it('a bad token, an unknown channel or no token at all is a DeliveryError not worth retrying', async () => {
      const input = { accountId: account.id, channelId: 'C0SALES', text: 'hello', png: PNG };
      await server().services.delivery.slackTokens.set(account.id, account.admin.id, 'xoxb-not-the-stand-ins-token');
      const bad = await failure(postToSlack(server().services, input));
      expect(bad).toBeInstanceOf(DeliveryError);
      expect([bad!.retryable, bad!.message]).toEqual([false, 'Slack refused files.getUploadURLExternal: invalid_auth']);

      await server().services.delivery.slackTokens.set(account.id, account.admin.id, slack.token);
      const channel = await failure(postToSlack(server().services, { ...input, channelId: 'C0NOWHERE' }));
      expect([channel!.retryable, channel!.message]).toEqual([false, 'Slack refused chat.postMessage: channel_not_found']);

      await server().services.delivery.slackTokens.delete(account.id);
      const none = await failure(postToSlack(server().services, input));
      expect([none!.retryable, none!.message]).toEqual([false, expect.stringContaining('This account has no Slack bot token')]);
    });

    it('rate limits, server errors and Slack being down are worth retrying; the next attempt goes through', async () => {
      const input = { accountId: account.id, channelId: 'C0SALES', text: 'retry me', png: PNG };
      for (const [fail, expected] of [
        [{ status: 429 }, 'Slack (PLINTH_SLACK_API_URL) answered 429 (retry after 1 s)'],
        [{ status: 503 }, 'Slack (PLINTH_SLACK_API_URL) answered 503'],
        [{ error: 'ratelimited' }, 'Slack refused files.getUploadURLExternal: ratelimited'],
      ] as const) {
        slack.failNext(1, fail);
        const error = await failure(postToSlack(server().services, input));
        expect([error!.retryable, error!.message]).toEqual([true, expected]);
      }
      const before = slack.messages.length;
      const posted = await postToSlack(server().services, input);
      expect(slack.messages.slice(before).map((m) => m.ts)).toEqual([posted.ts]);

      const down = await failure(postWith('http://127.0.0.1:1/api', new EgressPolicy(server().config.egress), slack.token, input));
      expect([down!.retryable, down!.message]).toEqual([true, expect.stringContaining('could not be reached')]);
    });

    it('the egress policy refuses Slack on a private address unless the operator allows it', async () => {
      const strict = new EgressPolicy({ allow: [], allowLocalRepositories: false });
      const before = slack.messages.length;
      const refused = await failure(postWith(slack.url, strict, slack.token, { accountId: account.id, channelId: 'C0SALES', text: 'x' }));
      expect([refused!.retryable, refused!.message]).toEqual([
        false,
        `Slack (PLINTH_SLACK_API_URL) ${new URL(slack.url).origin} is refused: 127.0.0.1 is a loopback address. The server's operator can allow it with PLINTH_EGRESS_ALLOW.`,
      ]);
      expect(slack.messages).toHaveLength(before);
    });
  },
  { PLINTH_SLACK_API_URL: slack.url },
);
