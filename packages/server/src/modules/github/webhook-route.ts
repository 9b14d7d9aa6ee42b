import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { GithubWebhookResult } from './schemas.js';

/** GitHub caps a delivery at 25 MB; a push payload is far smaller, and this bounds what one request may make the server hold. */
const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The App's webhook, in a context of its own: its parsers hand the handler the raw bytes, because
 * the signature is over the body exactly as GitHub sent it, which re-serialised JSON is not.
 */
export const githubWebhookRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(['application/json', 'application/x-www-form-urlencoded'], { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post('/api/v1/github/webhook', {
    config: { auth: 'public' },
    bodyLimit: WEBHOOK_BODY_LIMIT,
    schema: {
      operationId: 'receiveGithubWebhook',
      tags: ['GitHub'],
      summary: "Receive the GitHub App's webhook deliveries (push, ping)",
      description:
        'Called by GitHub, not by people: the body (application/json, or form-encoded `payload`) must carry a valid `X-Hub-Signature-256`, ' +
        'the HMAC-SHA256 of the raw body with PLINTH_GITHUB_WEBHOOK_SECRET. A push to the connected branch of a connected repository ' +
        'queues an import of every deployment connected to it (202); ping answers 200; other events are accepted and ignored (202, with the reason).',
      response: {
        200: Type.Ref(GithubWebhookResult),
        202: Type.Ref(GithubWebhookResult),
        400: Type.Ref('Error', { description: 'The payload is not a JSON object, or a push without a ref.' }),
        401: Type.Ref('Error', { description: 'The signature is missing or wrong, or no webhook secret is configured.' }),
        413: Type.Ref('Error', { description: 'The payload is larger than 5 MiB.' }),
        415: Type.Ref('Error', { description: 'Neither application/json nor application/x-www-form-urlencoded.' }),
      },
    },
    handler: async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const result = await app.services.github.webhook({
        body,
        contentType: header(request.headers['content-type']),
        signature: header(request.headers['x-hub-signature-256']),
        event: header(request.headers['x-github-event']),
        delivery: header(request.headers['x-github-delivery']),
      });
      return reply.code(result.code as 200 | 202).send(result.body);
    },
  });
};
