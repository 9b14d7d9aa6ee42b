import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../http/common-schemas.js';
import { CACHE_MODES } from './query-input.js';

export const DeploymentParams = Type.Object(
  { deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) },
  { additionalProperties: false },
);
export const BranchParams = Type.Object(
  { deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), branch: Type.String({ minLength: 1, maxLength: 255 }) },
  { additionalProperties: false },
);

const QueryType = Type.Literal('multi', { description: 'Answer in the multi shape `{queryType, results, pivotQuery, slowQuery}`.' });

/** Cube's cache mode for the request, as @cubejs-client/core sends its `cache` option. */
const CacheParam = StringEnum(CACHE_MODES, {
  description: 'How to use the result cache: `must-revalidate` and `no-cache` read the data again.',
});

/**
 * A Cube query, an array of them (data blending), or either as JSON text. Its shape is checked
 * where a GET's is, so both are refused alike and by name ("Query must be a JSON object").
 */
const QueryValue = Type.Unknown({ description: 'A Cube query object, an array of them (data blending), or either as JSON text.' });

const QueryText = Type.String({ description: 'The query as URL-encoded JSON.' });

export const LoadQuerystring = Type.Object(
  { query: QueryText, queryType: Type.Optional(QueryType), cache: Type.Optional(CacheParam) },
  { additionalProperties: false },
);
export type LoadQuerystring = Static<typeof LoadQuerystring>;

export const LoadBody = Type.Object(
  { query: QueryValue, queryType: Type.Optional(QueryType), cache: Type.Optional(CacheParam) },
  { additionalProperties: false },
);
export type LoadBody = Static<typeof LoadBody>;

/** `/v1/sql` and `/v1/dry-run` take the query alone: they answer the same whatever the shape or cache asked for. */
export const PlanQuerystring = Type.Object({ query: QueryText }, { additionalProperties: false });
export const PlanBody = Type.Object({ query: QueryValue }, { additionalProperties: false });

export const MetaQuerystring = Type.Object(
  { onlyViews: Type.Optional(Type.Boolean({ description: 'Only the views, as Cube answers `?onlyViews=true`.' })) },
  { additionalProperties: false },
);

/** `{query, data, annotation, ...}`, the multi shape `{queryType, results, ...}`, or `{error: 'Continue wait'}`. */
export const LoadResponse = Type.Object({}, { additionalProperties: true, $id: 'DataApiLoadResponse' });
export const MetaResponse = Type.Object(
  { cubes: Type.Array(Type.Object({}, { additionalProperties: true })) },
  { additionalProperties: true, $id: 'DataApiMetaResponse' },
);

/** `/v1/sql` (`{sql}`, an array of them for several queries) and `/v1/dry-run` (`{queryType, normalizedQueries, ...}`). */
export const PlanResponse = Type.Union(
  [Type.Object({}, { additionalProperties: true }), Type.Array(Type.Object({}, { additionalProperties: true }))],
  { $id: 'DataApiPlanResponse' },
);

export const dataApiSchemas = [LoadResponse, MetaResponse, PlanResponse];
