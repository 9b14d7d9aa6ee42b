import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { getVerb } from '../../core/rest.js';

const PATH = '/api/v1/tenant-settings/slack-bot-token';

export const slackToken = getVerb({
  name: 'slack-token',
  args: [],
  summary: 'Show whether the account has a Slack bot token, never the token (getSlackBotToken)',
  path: () => PATH,
});

export const setSlackToken = defineVerb({
  name: 'set-slack-token',
  summary: 'Set the Slack bot token notifications post to Slack with (setSlackBotToken)',
  description: "The Slack app's bot token (xoxb-…) with the chat:write and files:write scopes; stored sealed, never shown again.",
  args: [],
  options: [
    { flags: '--token-stdin', description: 'Read the token from standard input (recommended)' },
    { flags: '--token <token>', description: 'The token (visible in shell history; prefer --token-stdin)' },
  ],
  examples: ['printf %s "$SLACK_BOT_TOKEN" | plinth tenant set-slack-token --token-stdin'],
  async run(f, _args, opts) {
    const token = opts.tokenStdin ? (await f.io.readStdin()).trim() : opts.token;
    if (!token) throw new UsageError('Give the token with --token-stdin or --token');
    const client = await f.client();
    f.output.object(await client.request('PUT', PATH, { body: { token } }));
  },
});

export const unsetSlackToken = defineVerb({
  name: 'unset-slack-token',
  summary: "Remove the account's Slack bot token (deleteSlackBotToken)",
  args: [],
  async run(f) {
    const client = await f.client();
    await client.request('DELETE', PATH);
    f.output.status('Slack bot token removed; Slack notifications fail until one is set again');
  },
});
