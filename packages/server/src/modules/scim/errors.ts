import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorCode } from '../../http/errors.js';

export const URN = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  searchRequest: 'urn:ietf:params:scim:api:messages:2.0:SearchRequest',
  bulkRequest: 'urn:ietf:params:scim:api:messages:2.0:BulkRequest',
  bulkResponse: 'urn:ietf:params:scim:api:messages:2.0:BulkResponse',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

export const SCIM_MEDIA_TYPE = 'application/scim+json';

/** The `scimType` values of RFC 7644 §3.12. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export function scimError(code: ErrorCode, scimType: ScimType | undefined, message: string): ApiError {
  return new ApiError(code, message, scimType ? { scimType } : {});
}

export const invalidFilter = (message: string) => scimError('bad_request', 'invalidFilter', message);
export const invalidValue = (message: string) => scimError('bad_request', 'invalidValue', message);
export const invalidSyntax = (message: string) => scimError('bad_request', 'invalidSyntax', message);
export const invalidPath = (message: string) => scimError('bad_request', 'invalidPath', message);
export const noTarget = (message: string) => scimError('bad_request', 'noTarget', message);
export const mutability = (message: string) => scimError('bad_request', 'mutability', message);
export const uniqueness = (message: string) => scimError('conflict', 'uniqueness', message);

/**
 * The RFC 7644 §3.12 body. Errors raised outside this module (credential checks, body validation,
 * another module's conflict) carry no scimType, so one is inferred where §3.12 defines it.
 */
export function scimErrorBody(error: ApiError) {
  const scimType = (error.extra.scimType as ScimType | undefined) ?? inferredScimType(error);
  return {
    schemas: [URN.error],
    status: String(error.status),
    ...(scimType ? { scimType } : {}),
    detail: error.message,
  };
}

function inferredScimType(error: ApiError): ScimType | undefined {
  switch (error.code) {
    case 'invalid_json':
    case 'validation_failed':
      return 'invalidSyntax';
    case 'conflict':
      return 'uniqueness';
    case 'bad_request':
      return 'invalidValue';
    default:
      return undefined;
  }
}

export function renderScimError(error: ApiError, _request: FastifyRequest, reply: FastifyReply) {
  reply.type(SCIM_MEDIA_TYPE);
  if (error.status === 401) reply.header('www-authenticate', 'Bearer realm="SCIM"');
  return scimErrorBody(error);
}
