import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { deploymentParam, requires } from '../../http/requirement.js';
import { DeploymentParams } from '../deployments/schemas.js';
import { DeploymentLogLine, DeploymentLogList, DeploymentLogQuery } from './schemas.js';

export const NDJSON = 'application/x-ndjson';

export const deploymentLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const logs = app.services.deploymentLogs;
  // A follow never ends by itself: end each one cleanly before the server waits for its connections.
  app.addHook('preClose', (done) => {
    for (const stream of logs.follows) stream.finish();
    done();
  });

  app.get('/api/v1/deployments/:deploymentId/logs', {
    config: { auth: requires('DeploymentRead', { resource: deploymentParam() }) },
    schema: {
      operationId: 'getDeploymentLogs',
      tags: ['Deployments'],
      summary: "Get or follow a deployment's logs",
      description: 'Build logs of the deployment, oldest first. With `follow=true` the answer streams as `application/x-ndjson`.',
      params: DeploymentParams,
      querystring: DeploymentLogQuery,
      response: {
        200: {
          description: 'The lines; with follow, a stream of them, one JSON object per line, and empty lines as heartbeats',
          content: {
            'application/json': { schema: Type.Ref(DeploymentLogList) },
            [NDJSON]: { schema: Type.Ref(DeploymentLogLine) },
          },
        },
      },
    },
    handler: async (request, reply) => {
      const { deploymentId } = request.params;
      if (!request.query.follow) return { items: await logs.list(request.account.id, deploymentId, request.query) };
      const stream = await logs.follow(request.account.id, deploymentId, request.query);
      // no-transform: a proxy that buffers or compresses would hold the lines back. The body is a
      // stream of the schema's lines, which the type provider cannot see in a Readable.
      return reply
        .header('content-type', `${NDJSON}; charset=utf-8`)
        .header('cache-control', 'no-store, no-transform')
        .send(stream as never);
    },
  });
};
