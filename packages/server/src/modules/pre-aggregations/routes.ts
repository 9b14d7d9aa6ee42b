import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../http/auth.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { DeploymentParams } from '../deployments/schemas.js';
import {
  BuildPreAggregationsInput,
  PreAggregationJobList,
  PreAggregationList,
  PreAggregationParams,
  PreAggregationPreview,
  PreAggregationsQuery,
  PreviewQuery,
} from './schemas.js';

const tags = ['Pre-aggregations'];
const read = requires('DeploymentRead', { resource: deploymentParam() });
/** Building spends the warehouse's time, and a preview shows rows before any access policy: both are a model developer's. */
const develop = requires('SchemaUpdate', { resource: deploymentParam() });

export const preAggregationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const operations = app.services.preAggregationOperations;
  const base = '/api/v1/deployments/:deploymentId/pre-aggregations';
  app.addHook('onClose', () => app.services.preAggregations.close());

  app.get(base, {
    config: { auth: read },
    schema: {
      operationId: 'getPreAggregations',
      tags,
      summary: 'Get pre-aggregations',
      description:
        "The pre-aggregations of the branch's newest build (the deploy branch's unless `branch` names another): partitions, rows, sizes, last refresh, build time and errors.",
      params: DeploymentParams,
      querystring: PreAggregationsQuery,
      response: { 200: Type.Ref(PreAggregationList) },
    },
    handler: async (request) => operations.list(principalOf(request), request.params.deploymentId, request.query.branch),
  });

  app.post(`${base}/build`, {
    config: { auth: develop },
    schema: {
      operationId: 'buildPreAggregations',
      tags,
      summary: 'Build pre-aggregations',
      description:
        'Queues a build of the named pre-aggregations (every one when left out) on the `rollups` queue: the named partitions (every one) are rebuilt whatever their refresh key says. Answers the queued jobs. Needs SchemaUpdate.',
      params: DeploymentParams,
      body: Type.Ref(BuildPreAggregationsInput),
      response: { 200: Type.Ref(PreAggregationJobList) },
    },
    handler: async (request) => operations.build(principalOf(request), request.params.deploymentId, request.body ?? {}),
  });

  app.get(`${base}/jobs`, {
    config: { auth: read },
    schema: {
      operationId: 'getPreAggregationJobs',
      tags,
      summary: 'Get pre-aggregation jobs',
      description:
        "The deployment's pre-aggregation refresh jobs, newest first: scheduled refreshes and builds asked for, with their state and last error.",
      params: DeploymentParams,
      response: { 200: Type.Ref(PreAggregationJobList) },
    },
    handler: async (request) => operations.status(principalOf(request), request.params.deploymentId),
  });

  app.get(`${base}/:preAggregationId/preview`, {
    config: { auth: develop },
    schema: {
      operationId: 'getPreAggregationPreview',
      tags,
      summary: 'Preview pre-aggregation',
      description: 'The first rows of a built pre-aggregation as stored, before any access policy applies (hence SchemaUpdate).',
      params: PreAggregationParams,
      querystring: PreviewQuery,
      response: { 200: Type.Ref(PreAggregationPreview) },
    },
    handler: async (request) =>
      operations.preview(principalOf(request), request.params.deploymentId, request.params.preAggregationId, request.query),
  });
};
