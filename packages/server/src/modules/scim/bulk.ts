import { Type } from '@sinclair/typebox';
import { ApiError } from '../../http/errors.js';
import { assertGoodValues } from '../../http/text-rule.js';
import type { ScimGroupService } from './group-service.js';
import { scimError, scimErrorBody, URN, invalidSyntax, invalidValue } from './errors.js';
import type { ScimResource } from './mappers.js';
import type { PatchOperation } from './patch.js';
import { requireSchemas } from './request-schemas.js';
import type { ScimContext, ScimUserService } from './user-service.js';

export const ScimBulkRequest = Type.Object(
  {
    schemas: Type.Optional(Type.Array(Type.String())),
    failOnErrors: Type.Optional(Type.Integer({ minimum: 1, description: 'Stop after this many failed operations.' })),
    Operations: Type.Array(
      Type.Object(
        {
          method: Type.String({ description: 'POST, PUT, PATCH or DELETE.' }),
          bulkId: Type.Optional(Type.String({ description: 'Required for POST; other operations refer to it as bulkId:{bulkId}.' })),
          version: Type.Optional(Type.String()),
          path: Type.String({ description: 'e.g. /Users, /Groups/{id} or /Groups/bulkId:{bulkId}.' }),
          data: Type.Optional(Type.Unknown()),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true, $id: 'ScimBulkRequest', description: 'RFC 7644 §3.7 BulkRequest.' },
);

export const ScimBulkResponse = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    Operations: Type.Array(
      Type.Object(
        {
          method: Type.String(),
          bulkId: Type.Optional(Type.String()),
          version: Type.Optional(Type.String()),
          location: Type.Optional(Type.String()),
          status: Type.String({ description: 'HTTP status of the operation, as a string.' }),
          response: Type.Optional(Type.Object({}, { additionalProperties: true })),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { $id: 'ScimBulkResponse', description: 'RFC 7644 §3.7 BulkResponse.' },
);

interface BulkOperation {
  method: string;
  bulkId?: string | undefined;
  version?: string | undefined;
  path: string;
  data?: unknown;
}

interface BulkResult {
  method: string;
  bulkId?: string;
  version?: string;
  location?: string;
  status: string;
  response?: Record<string, unknown>;
}

const BULK_REF = /bulkId:([^"/\s]+)/g;
const PATH = /^\/(Users|Groups)(?:\/([^/]+))?$/i;

/**
 * RFC 7644 §3.7. Each operation commits on its own, so one failure leaves the others done; an
 * operation that refers to `bulkId:x` waits until the operation that creates x has run, whatever
 * their order in the request, and fails if x is never created.
 */
export async function runBulk(
  ctx: ScimContext,
  request: { failOnErrors?: number | undefined; Operations: BulkOperation[] },
  services: { users: ScimUserService; groups: ScimGroupService },
  maxOperations: number,
) {
  if (request.Operations.length > maxOperations) {
    throw new ApiError(
      'payload_too_large',
      `A bulk request may hold at most ${maxOperations} operations (bulkActionLimit); this one has ${request.Operations.length}`,
    );
  }
  const results: Array<BulkResult | undefined> = new Array(request.Operations.length);
  const created = new Map<string, string>();
  const failedIds = new Set<string>();
  let errors = 0;
  let pending = request.Operations.map((op, index) => ({ op, index }));

  while (pending.length > 0) {
    const ready = pending.filter(({ op }) => references(op).every((id) => created.has(id) || failedIds.has(id) || !definedIn(pending, id)));
    const batch = ready.length > 0 ? ready : pending; // a cycle: run them, the unresolved refs fail
    pending = pending.filter((p) => !batch.includes(p));
    for (const { op, index } of batch) {
      if (request.failOnErrors !== undefined && errors >= request.failOnErrors) return bulkResponse(results);
      const result = await runOne(ctx, op, services, created);
      results[index] = result;
      if (Number(result.status) >= 400) {
        errors += 1;
        if (op.bulkId) failedIds.add(op.bulkId);
      }
    }
  }
  return bulkResponse(results);
}

function bulkResponse(results: Array<BulkResult | undefined>) {
  return { schemas: [URN.bulkResponse], Operations: results.filter((r): r is BulkResult => r !== undefined) };
}

function references(op: BulkOperation): string[] {
  const text = `${op.path} ${op.data === undefined ? '' : JSON.stringify(op.data)}`;
  return [...text.matchAll(BULK_REF)].map((m) => m[1]!);
}

function definedIn(pending: Array<{ op: BulkOperation }>, bulkId: string) {
  return pending.some(({ op }) => op.bulkId === bulkId && op.method.toUpperCase() === 'POST');
}

async function runOne(
  ctx: ScimContext,
  op: BulkOperation,
  services: { users: ScimUserService; groups: ScimGroupService },
  created: Map<string, string>,
): Promise<BulkResult> {
  const method = op.method.toUpperCase();
  const base: BulkResult = { method, ...(op.bulkId ? { bulkId: op.bulkId } : {}), status: '200' };
  try {
    assertGoodValues(op, '');
    const path = resolveRefs(op.path, created) as string;
    const data = resolveRefs(op.data, created);
    const match = PATH.exec(path);
    if (!match) throw scimError('bad_request', 'invalidPath', `"${op.path}" is not /Users, /Groups or one of their resources`);
    const service = match[1]!.toLowerCase() === 'users' ? services.users : services.groups;
    const id = match[2];
    const pre = { ifMatch: op.version };
    if (method === 'POST') {
      // RFC 7644 §3.7: REQUIRED for POST; without it the client cannot tell which result is whose.
      if (!op.bulkId) throw invalidValue('bulkId is required for a POST operation');
      if (id) throw invalidSyntax('POST goes to /Users or /Groups, without an id');
      const resource = await service.create(ctx, asObject(data));
      if (op.bulkId) created.set(op.bulkId, resource.id);
      return { ...base, ...located(resource), status: '201' };
    }
    if (!id) throw invalidSyntax(`${method} needs the resource's id in the path`);
    if (method === 'PUT') return { ...base, ...located(await service.replace(ctx, id, asObject(data), pre)) };
    if (method === 'PATCH') {
      requireSchemas(data, URN.patchOp);
      const operations = (asObject(data).Operations ?? asObject(data).operations) as PatchOperation[] | undefined;
      if (!Array.isArray(operations)) throw invalidSyntax('PATCH data needs Operations');
      return { ...base, ...located(await service.patch(ctx, id, operations, pre)) };
    }
    if (method === 'DELETE') {
      await service.delete(ctx, id, pre);
      return { ...base, status: '204' };
    }
    throw invalidSyntax(`method "${op.method}" is not POST, PUT, PATCH or DELETE`);
  } catch (error) {
    const apiError = error instanceof ApiError ? error : new ApiError('internal_error', 'Internal server error');
    return { ...base, status: String(apiError.status), response: scimErrorBody(apiError) };
  }
}

function located(resource: ScimResource) {
  const meta = resource.meta as { location: string; version: string };
  return { location: meta.location, version: meta.version };
}

function asObject(data: unknown): Record<string, unknown> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw invalidSyntax('data must be an object');
  return data as Record<string, unknown>;
}

/** Replaces every `bulkId:x` with the id the operation creating x was given. */
function resolveRefs(value: unknown, created: Map<string, string>): unknown {
  if (typeof value === 'string') {
    return value.replace(BULK_REF, (whole, bulkId: string) => {
      const id = created.get(bulkId);
      if (!id) throw scimError('conflict', 'invalidValue', `bulkId "${bulkId}" does not name a resource created in this request`);
      return id;
    });
  }
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, created));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, created)]));
  }
  return value;
}
