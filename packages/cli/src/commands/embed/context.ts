import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';

/** getEmbedContext: what an embedded page shows of its token beside the dashboard (user, chat, themes). */
export const context = defineVerb({
  name: 'context',
  summary: "Show an embed token's user, chat setting and themes as the embedded page sees them (getEmbedContext)",
  description:
    "The embed theme is the account's with the session's embedTheme overrides laid over it; the chat setting is the session's, else the account's.",
  options: [{ flags: '--token <embed_token>', description: 'The embed token (from plinth embed token)', required: true }],
  examples: ['plinth embed context --token "$EMBED_TOKEN"', 'plinth embed context --token "$EMBED_TOKEN" --json'],
  async run(f, _args, opts) {
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/embed/context', 'get'>>('GET', '/api/v1/embed/context', {
      anonymous: true,
      headers: { authorization: opts.token },
    });
    f.output.object(response, [
      ['User', (c) => c.user.displayName ?? c.user.email ?? c.user.externalId ?? ''],
      ['Type', (c) => c.user.type],
      ['External ID', (c) => c.user.externalId ?? ''],
      ['E-mail', (c) => c.user.email ?? ''],
      ['Creator mode', (c) => (c.creatorMode ? 'yes' : 'no')],
      ['Dashboard chat', (c) => (c.showDashboardChat ? 'shown' : 'hidden')],
      ['Primary colour', (c) => (c.embedTheme as { primaryColor?: string | null }).primaryColor ?? ''],
      ['Font', (c) => (c.embedTheme as { font?: string | null }).font ?? ''],
    ]);
  },
});
