import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answerSql, cubesqlLines, SqlTranslationError, type Query, type SqlLoadResult } from '@plinth/semantic';
import type { TSchema } from '@sinclair/typebox';
import { deploymentParam, requires } from '../../../http/requirement.js';
import type { AuthenticatedContext } from '../../../pipeline/context.js';
import { contextOf, targetOf } from '../request-context.js';
import { badRequest } from '../../../http/errors.js';
import type { DataApiService, DataTarget } from '../service.js';
import { CubesqlBody, CubesqlLine } from './schemas.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/** One of the data API's URL prefixes (the deploy branch's, or a branch's dev-mode one). */
export interface Prefix {
  path: string;
  params: TSchema;
  idPrefix: string;
  where: string;
}

/** Thrown out of `load` to stop the answer when the data API says to retry, carrying what it answered. */
class ContinueWait extends Error {
  constructor(readonly answer: unknown) {
    super('Continue wait');
  }
}

const isContinueWait = (answer: unknown) => (answer as { error?: unknown } | null)?.error === 'Continue wait';

/**
 * Answers SQL with the SQL API's translation, every semantic query it reads going through `load`
 * (same executor, cache, policies and limits), so `/cubesql` and the wire protocol accept the same SQL.
 * A query still running past the wait limit is answered `{"error": "Continue wait"}`, as `load`
 * answers it: the client retries the same request and gets the rows once the query is done, while
 * no request is held open (and no connection counted against the server) for as long as it runs.
 */
export async function cubesqlAnswer(
  dataApi: DataApiService,
  context: AuthenticatedContext,
  target: DataTarget,
  body: CubesqlBody,
): Promise<string> {
  const model = await dataApi.meta(context, target);
  const extra = { ...(body.timezone ? { timezone: body.timezone } : {}), ...(body.cache ? { cache: body.cache } : {}) };
  const load = async (query: Query): Promise<SqlLoadResult> => {
    const answer = await dataApi.load(context, target, { ...query, ...extra });
    if (isContinueWait(answer)) throw new ContinueWait(answer);
    return answer as SqlLoadResult;
  };
  try {
    return await cubesqlLines(await answerSql(body.query, { model, load, maxRows: dataApi.maxLimit }));
  } catch (error) {
    if (error instanceof ContinueWait) return `${JSON.stringify(error.answer)}\n`;
    // A parser quirk on some input the tests never saw is still that input's 400, never a 500.
    if (error instanceof SqlTranslationError) throw badRequest(error.message);
    throw error;
  }
}

/** `POST {prefix}/cubesql`: Cube's SQL API over HTTP, for the SQL the translation understands. */
export function cubesqlRoute(app: App, { path, params, idPrefix, where }: Prefix): void {
  app.post(`${path}/cubesql`, {
    config: {
      surface: 'data' as const,
      auth: requires('DataApiQuery', { kinds: ['dataToken'], resource: deploymentParam() }),
    },
    schema: {
      operationId: idPrefix ? `${idPrefix}CubesqlV1` : 'cubesqlV1',
      tags: ['Data API'],
      summary: `Run a SQL query${where}, answered as newline-delimited JSON`,
      params,
      body: CubesqlBody,
      response: { 200: CubesqlLine },
    },
    handler: async (request, reply) => {
      const lines = await cubesqlAnswer(app.services.dataApi, contextOf(request), targetOf(request), request.body);
      // The schema documents one line; the body is several, already JSON, which Fastify sends as is.
      return reply.type('application/json; charset=utf-8').send(lines as never);
    },
  });
}
