import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf, userPrincipalOf } from '../../http/auth.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { DeploymentParams } from '../deployments/schemas.js';
import { CiRunParams, FinishCiRunBody, StartCiRunBody } from './schemas.js';

const PREFIX = '/build/api/v1/deployments/:deploymentId/ci-runs';
const tags = ['CI Gate'];
// Section 5 rule 5: the gate's key holds SchemaUpdateDevBranches; a run is dev mode's lease.
const auth = requires('SchemaUpdateDevBranches', { resource: deploymentParam(), doing: 'run the CI gate' });
const Run = Type.Ref('CiRun');

export const ciGateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const gate = app.services.ciGate;

  app.post(PREFIX, {
    config: { auth },
    schema: {
      operationId: 'startCiRun',
      tags,
      summary: 'Start a CI gate run, waiting for the run of the same deployment and credential to end',
      description:
        'Dev mode is per credential, so runs of one deployment and credential take turns. The run holds a lease; ' +
        'heartbeat it within `leaseSeconds`, and finish it. A run whose lease lapses is ended and its credential taken out of dev mode.',
      params: DeploymentParams,
      body: Type.Ref(StartCiRunBody),
      response: {
        201: Run,
        409: Type.Ref('Error', { description: 'Another run still held the lease after `waitSeconds`; the message names it.' }),
      },
    },
    handler: async (request, reply) => {
      // A waiting request whose client went away stops waiting instead of taking a lease nobody uses.
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      const run = await gate.start(userPrincipalOf(request), request.params.deploymentId, request.body, gone.signal);
      return reply.code(201).send(run);
    },
  });

  app.post(`${PREFIX}/:runId/heartbeat`, {
    config: { auth },
    schema: {
      operationId: 'heartbeatCiRun',
      tags,
      summary: "Extend a CI run's lease",
      params: CiRunParams,
      response: { 200: Run, 409: Type.Ref('Error', { description: 'The run has ended (finished or lapsed).' }) },
    },
    handler: (request) => gate.heartbeat(principalOf(request), request.params.deploymentId, request.params.runId),
  });

  app.post(`${PREFIX}/:runId/finish`, {
    config: { auth },
    schema: {
      operationId: 'finishCiRun',
      tags,
      summary: 'Finish a CI run and hand the lease to the next run',
      description: 'Finishing again with the same outcome answers the run unchanged.',
      params: CiRunParams,
      body: Type.Ref(FinishCiRunBody),
      response: { 200: Run, 409: Type.Ref('Error', { description: 'The run lapsed, or finished with another outcome.' }) },
    },
    handler: (request) => gate.finish(principalOf(request), request.params.deploymentId, request.params.runId, request.body.outcome),
  });
};
