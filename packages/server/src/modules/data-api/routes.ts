import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../../http/auth.js';
import { setErrorRenderer } from '../../http/error-handler.js';
import { rememberResponse, responseCacheHook } from '../../http/response-cache-listener.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { INVALID_TOKEN } from './caller.js';
import { cubesqlRoute } from './cubesql/routes.js';
import { parseQueryParam } from './query-input.js';
import {
  BranchParams,
  DeploymentParams,
  LoadBody,
  LoadQuerystring,
  LoadResponse,
  MetaQuerystring,
  MetaResponse,
  PlanBody,
  PlanQuerystring,
  PlanResponse,
} from './schemas.js';
import { contextOf, targetOf } from './request-context.js';
import { toBadRequest, type CachedResult } from './service.js';

/** Cube's data API: a bare JWT (data API or embed token) on the deployment and branch it was minted for (reach.ts). */
const dataRoute = {
  surface: 'data' as const,
  auth: requires('DataApiQuery', { kinds: ['dataToken'], resource: deploymentParam() }),
};

/** The deploy branch at `/d/{id}`, and a dev or enabled staging branch at `/d/{id}/dev-mode/{branch}`. */
const PREFIXES = [
  { path: '/d/:deploymentId/cubejs-api/v1', params: DeploymentParams, idPrefix: '', where: '' },
  { path: '/d/:deploymentId/dev-mode/:branch/cubejs-api/v1', params: BranchParams, idPrefix: 'branch', where: ' of a branch' },
];

/** A GET's `query`, or a POST's given as JSON text; malformed JSON being the caller's 400. */
function queryParam(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return parseQueryParam(raw);
  } catch (error) {
    return toBadRequest(error);
  }
}

/**
 * A cached answer is the same object on every hit, so its JSON is written once and kept beside it
 * (and dropped with it): serializing kilobytes of rows per request was a large part of a cached load.
 */
const answerTexts = new WeakMap<object, string>();
function answerText(answer: unknown): string {
  let text = typeof answer === 'object' && answer !== null ? answerTexts.get(answer) : undefined;
  if (text === undefined) {
    text = JSON.stringify(answer);
    if (typeof answer === 'object' && answer !== null) answerTexts.set(answer, text);
  }
  return text;
}
const JSON_TYPE = 'application/json; charset=utf-8';
function answerJson(reply: FastifyReply, answer: unknown): string {
  void reply.type(JSON_TYPE);
  return answerText(answer);
}

/**
 * A `GET …/load` answered from the result cache goes into the pipeline's response cache, to be
 * given again to identical requests while its build and cached result hold. Only for data API
 * tokens with an expiry: their verifier remembers them (the same text verifies the same way until
 * it expires, and nothing revokes one), so a repeat is admitted again without a promise; embed
 * tokens, whose sessions can be revoked, always go the full way. Another token, so another
 * security context, is another entry.
 */
function cacheResponse(app: Parameters<FastifyPluginAsyncTypebox>[0], request: FastifyRequest, cached: CachedResult): void {
  const principal = principalOf(request);
  if (principal.kind !== 'dataToken' || principal.claims.expiresAt === null) return;
  const bytes = Buffer.from(answerText(cached.answer));
  rememberResponse(app.pipeline, request, principal, { contentType: JSON_TYPE, bytes, current: cached.isCurrent });
}

const opId = (prefix: string, name: string) => (prefix ? `${prefix}${name[0]!.toUpperCase()}${name.slice(1)}` : name);

export const dataApiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Cube's clients read these exact messages: a missing header and any refused token are 403s.
  // A token refused on a branch says so (reach.ts wrongBranch), still starting with Cube's words.
  setErrorRenderer('data', (error, _request, reply) => {
    if (error.status !== 401 && error.status !== 403) return { error: error.message };
    reply.code(403);
    if (typeof error.extra.branch === 'string') return { error: error.message };
    return { error: /^Missing Authorization header/.test(error.message) ? "Authorization header isn't set" : INVALID_TOKEN };
  });
  app.addHook('onClose', () => app.services.dataApi.close());
  const dataApi = app.services.dataApi;

  for (const { path, params, idPrefix, where } of PREFIXES) {
    cubesqlRoute(app, { path, params, idPrefix, where });
    app.get(`${path}/load`, {
      config: dataRoute,
      schema: {
        operationId: opId(idPrefix, 'loadV1Get'),
        tags: ['Data API'],
        summary: `Run a query${where} (GET)`,
        params,
        querystring: LoadQuerystring,
        response: { 200: Type.Ref(LoadResponse) },
      },
      // A request identical to one answered from the result cache is answered here, before the rest of its way.
      onRequest: responseCacheHook(app.pipeline),
      handler: async (request, reply) => {
        const { query, queryType, cache } = request.query;
        const whenCached = (cached: CachedResult) => cacheResponse(app, request, cached);
        return answerJson(
          reply,
          await dataApi.load(contextOf(request), targetOf(request), queryParam(query), { queryType, cache, whenCached }),
        );
      },
    });

    app.post(`${path}/load`, {
      config: dataRoute,
      schema: {
        operationId: opId(idPrefix, 'loadV1'),
        tags: ['Data API'],
        summary: `Run a query${where}`,
        params,
        body: LoadBody,
        response: { 200: Type.Ref(LoadResponse) },
      },
      handler: async (request, reply) => {
        const { query, queryType, cache } = request.body;
        return answerJson(reply, await dataApi.load(contextOf(request), targetOf(request), queryParam(query), { queryType, cache }));
      },
    });

    for (const [verb, name, run] of [
      ['sql', 'sqlV1', (request: FastifyRequest, query: unknown) => dataApi.sql(contextOf(request), targetOf(request), query)],
      ['dry-run', 'dryRunV1', (request: FastifyRequest, query: unknown) => dataApi.dryRun(contextOf(request), targetOf(request), query)],
    ] as const) {
      const what = verb === 'sql' ? 'The SQL a query' : 'The normalized queries a query';
      app.get(`${path}/${verb}`, {
        config: dataRoute,
        schema: {
          operationId: opId(idPrefix, `${name}Get`),
          tags: ['Data API'],
          summary: `${what}${where} would run (GET)`,
          params,
          querystring: PlanQuerystring,
          response: { 200: Type.Ref(PlanResponse) },
        },
        handler: async (request) => run(request, queryParam(request.query.query)),
      });
      app.post(`${path}/${verb}`, {
        config: dataRoute,
        schema: {
          operationId: opId(idPrefix, name),
          tags: ['Data API'],
          summary: `${what}${where} would run`,
          params,
          body: PlanBody,
          response: { 200: Type.Ref(PlanResponse) },
        },
        handler: async (request) => run(request, queryParam(request.body.query)),
      });
    }

    app.get(`${path}/meta`, {
      config: dataRoute,
      schema: {
        operationId: opId(idPrefix, 'metaV1'),
        tags: ['Data API'],
        summary: `The cubes, views and members${where} the caller may query`,
        params,
        querystring: MetaQuerystring,
        response: { 200: Type.Ref(MetaResponse) },
      },
      handler: async (request) => dataApi.meta(contextOf(request), targetOf(request), request.query),
    });
  }
};
