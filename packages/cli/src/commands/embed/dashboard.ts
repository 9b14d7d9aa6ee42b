import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { enc } from '../../core/rest.js';

/**
 * getDashboard: what an embedding page reads. With --token it asks as that embed token (to check
 * what an embedded user will see); without, as you (you need read access to the workbook).
 */
export const dashboard = defineVerb({
  name: 'dashboard',
  summary: 'Show an embeddable dashboard as an embed token, or as you (getDashboard)',
  description:
    'An embed token opens a published dashboard of its deployment whose embedding is enabled (plinth embed enable-dashboard); anything else is "not found".',
  args: ['<public_id>'],
  options: [{ flags: '--token <embed_token>', description: 'Ask with this embed token (from plinth embed token)' }],
  examples: ['plinth embed dashboard 0b6c7a52-9d7e-4a53-9c1f-1f6c5a0e2b11 --token "$EMBED_TOKEN"'],
  async run(f, [publicId], opts) {
    const client = await f.client();
    const asToken = opts.token === undefined ? {} : { anonymous: true, headers: { authorization: opts.token } };
    const response = await client.request<Ok<'/api/v1/embed/dashboard/{publicId}', 'get'>>(
      'GET',
      `/api/v1/embed/dashboard/${enc(publicId ?? '')}`,
      asToken,
    );
    f.output.object(response, [
      ['Public ID', 'publicId'],
      ['Title', 'title'],
      ['Status', 'status'],
      ['Embedding', (d) => (d.allowEmbed ? 'enabled' : 'disabled')],
      ['Version', 'versionNumber'],
      ['Widgets', (d) => (d.config as { widgets?: unknown[] } | undefined)?.widgets?.length ?? 0],
      ['Workbook', 'workbookId'],
    ]);
  },
});
