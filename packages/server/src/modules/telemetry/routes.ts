import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../http/errors.js';
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
      description: 'Command group, outcome, client version, platform and a hashed machine id; nothing personal. At most 60 events a minute per source.',
      body: Type.Ref(TelemetryEvent),
      response: { 202: Type.Null({ description: 'Accepted' }), 429: Type.Ref(Type.Object({}, { $id: 'Error' }), { description: 'Too many events' }) },
    },
    handler: async (request, reply) => {
      const stored = await app.services.telemetry.record(request.account.id, request.body, request.ip);
      if (!stored) throw new ApiError('too_many_requests', 'Too many telemetry events; slow down');
      return reply.code(202).send(null);
    },
  });
};
