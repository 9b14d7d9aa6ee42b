import { Type, type Static } from '@sinclair/typebox';

export const DeploymentParams = Type.Object(
  { deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) },
  { additionalProperties: false },
);
export const BranchParams = Type.Object(
  { deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), branch: Type.String({ minLength: 1, maxLength: 255 }) },
  { additionalProperties: false },
);

const QueryType = Type.Literal('multi', { description: 'Answer in the multi shape `{queryType, results, pivotQuery, slowQuery}`.' });

/** A Cube query, or an array of them (data blending); the engine validates its members. */
const QueryValue = Type.Union(
  [Type.Object({}, { additionalProperties: true }), Type.Array(Type.Object({}, { additionalProperties: true }), { minItems: 1 })],
  { description: 'A Cube query object, or an array of them.' },
);

export const LoadQuerystring = Type.Object(
  { query: Type.String({ description: 'The query as URL-encoded JSON.' }), queryType: Type.Optional(QueryType) },
  { additionalProperties: false },
);
export type LoadQuerystring = Static<typeof LoadQuerystring>;

export const LoadBody = Type.Object({ query: QueryValue, queryType: Type.Optional(QueryType) }, { additionalProperties: false });
export type LoadBody = Static<typeof LoadBody>;

/** `{query, data, annotation, ...}`, the multi shape `{queryType, results, ...}`, or `{error: 'Continue wait'}`. */
export const LoadResponse = Type.Object({}, { additionalProperties: true, $id: 'DataApiLoadResponse' });
export const MetaResponse = Type.Object(
  { cubes: Type.Array(Type.Object({}, { additionalProperties: true })) },
  { additionalProperties: true, $id: 'DataApiMetaResponse' },
);

/** `/v1/sql` (`{sql}`) and `/v1/dry-run` (`{queryType, normalizedQueries, ...}`). */
export const PlanResponse = Type.Object({}, { additionalProperties: true, $id: 'DataApiPlanResponse' });

export const dataApiSchemas = [LoadResponse, MetaResponse, PlanResponse];
