import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { tooManyRequests } from '../rate-limits/service.js';
import { TelemetryEvent } from './schemas.js';

export const TELEMETRY_BODY_LIMIT = 2048;

export const telemetryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/api/v1/telemetry', {
    // Every client command sends one: an operator's log at info would be mostly telemetry.
    config: { auth: 'public', needsAccount: true, accessLogLevel: 'debug' },
    bodyLimit: TELEMETRY_BODY_LIMIT,
    schema: {
      operationId: 'recordTelemetry',
      tags: ['Telemetry'],
      summary: 'Record an anonymous usage event of the command-line client',
      description:
        'Command group, outcome, client version, platform and a hashed machine id; nothing personal. At most 60 events a minute per account and client address.',
      body: Type.Ref(TelemetryEvent),
      response: {
        202: Type.Null({ description: 'Accepted' }),
        429: Type.Ref('Error', { description: 'Too many events; see Retry-After' }),
      },
    },
    handler: async (request, reply) => {
      const verdict = await app.services.telemetry.record(request.account.id, request.body, request.ip);
      if (!verdict.admitted) throw tooManyRequests('Too many telemetry events; slow down', verdict.retryAfterSeconds);
      return reply.code(202).send(null);
    },
  });
};
