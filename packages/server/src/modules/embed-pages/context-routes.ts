import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.js';
import { unauthenticated } from '../../http/errors.js';
import { requires } from '../../http/requirement.js';
import { embedContext } from './context.js';

/**
 * The embed pages' one operation: what the page shows beside the dashboard. Embed tokens only
 * (bare JWTs, verified under the dataToken kind); a data API token proper does not hold
 * EmbedDashboardRead and is refused by the requirement.
 */
export async function embedContextRoutes(app: Parameters<FastifyPluginAsyncTypebox>[0]): Promise<void> {
  app.get('/api/v1/embed/context', {
    config: { auth: requires('EmbedDashboardRead', { kinds: ['dataToken'], resource: 'withinScope' }) },
    schema: {
      operationId: 'getEmbedContext',
      tags: ['Embed'],
      summary: 'Get the context of an embed token',
      description:
        "What an embedded page shows beside its dashboard: the token's user (profile, e-mail or external id), whether the " +
        "session is in creator mode, whether the dashboard shows its chat (the session's `settings.showDashboardChat`, else " +
        "the account's), the account's app theme, and its embed theme with the session's `embedTheme` overrides laid over it. " +
        'Embed tokens only (`Authorization: <token>`).',
      response: { 200: Type.Ref('EmbedContext') },
    },
    handler: async (request) => {
      const principal = principalOf(request);
      // The requirement admits dataToken-kind credentials; only embed tokens have a user to describe.
      if (principal.kind !== 'embedToken') throw unauthenticated('Authentication required');
      return embedContext(app.services, principal);
    },
  });
}
