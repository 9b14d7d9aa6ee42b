import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { lazyValidatorCompiler, referencedSchemas } from './schema-compilers.js';
import { badEncodingIn, badTextReason, badValue, badValueIn } from './text-rule.js';
import { routeConfig } from './route-config.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Bodies are validated strictly: a string where a number belongs is an error, not coerced, and
 * unknown properties are reported rather than dropped. Path and query parameters arrive as text,
 * so they are coerced to the declared types.
 */
export function installValidation(app: FastifyInstance) {
  const strict = makeAjv(false);
  const coercing = makeAjv('array');
  // Each Ajv instance learns a shared schema when a route first refers to it: adding all of them
  // to each instance up front validated some 250 schemas against the meta-schema at every start.
  const compile = (schema: object, httpPart: string | undefined) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    for (const [id, shared] of referencedSchemas(schema, app.getSchemas())) {
      if (!ajv.getSchema(id)) ajv.addSchema(shared as object);
    }
    return ajv.compile(schema);
  };
  app.setValidatorCompiler(lazyValidatorCompiler(app, ({ schema, httpPart }) => compile(schema, httpPart)));
  app.addHook('onRoute', (route) => {
    const entries = route.config?.bulkEntries;
    const body = route.schema?.body as TSchemaLike | undefined;
    if (!entries || !body || !route.config?.entriesTypedByRoute) return;
    // The entries stay typed in the spec; the route checks each one, so one bad entry fails alone.
    route.validatorCompiler = lazyValidatorCompiler(app, ({ schema, httpPart }) =>
      compile(httpPart === 'body' ? withUntypedEntries(schema as TSchemaLike, entries, app) : schema, httpPart),
    );
  });
  installTextRule(app);
}

type TSchemaLike = { $ref?: string; $id?: string; properties?: Record<string, TSchemaLike>; items?: unknown; [key: string]: unknown };

function withUntypedEntries(schema: TSchemaLike, entries: string, app: FastifyInstance): TSchemaLike {
  const resolved = schema.$ref ? (app.getSchema(schema.$ref) as TSchemaLike) : schema;
  const { $id: _id, ...rest } = resolved;
  const array = resolved.properties?.[entries];
  if (!array) throw new Error(`bulkEntries names "${entries}", which the body schema does not have`);
  return { ...rest, properties: { ...resolved.properties, [entries]: { ...array, items: {} } } };
}

/**
 * One rule for every operation, before any route sees its input: no string anywhere in the
 * headers, path, query or body may hold a NUL or a lone surrogate, and no number may be infinite.
 * Headers, path and query are checked on arrival, before the Host names an account or a
 * credential is looked up; the body once it is parsed, before schema validation.
 */
function installTextRule(app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    const problem =
      namedProblem(request.headers, 'header') ??
      namedProblem(request.params, 'path parameter') ??
      badEncodingIn(queryOf(request.url), 'query parameter') ??
      namedProblem(request.query, 'query parameter');
    done(problem ? badValue(problem) : undefined);
  });
  // Only routes that take a body pay for the body's walk: a hook on every GET costs measurably.
  const checkBody: preValidationHookHandler = (request, _reply, done) => {
    const body = request.body as Record<string, unknown> | null | undefined;
    const entries = routeConfig(request).bulkEntries;
    const problem = badValueIn(body, '', entries && body && typeof body === 'object' ? body[entries] : undefined);
    done(problem ? badValue(problem) : undefined);
  };
  app.addHook('onRoute', (route) => {
    if (!route.schema?.body) return;
    const own = route.preValidation;
    route.preValidation = own === undefined ? [checkBody] : [checkBody, ...(Array.isArray(own) ? own : [own])];
  });
}

function queryOf(url: string): string {
  const start = url.indexOf('?');
  return start < 0 ? '' : url.slice(start + 1);
}

/** Headers, path and query parameters are named as such: `query parameter after must …`. */
function namedProblem(values: unknown, kind: string): string | undefined {
  if (!values || typeof values !== 'object') return undefined;
  for (const name in values) {
    const value = (values as Record<string, unknown>)[name];
    // The common case, a clean string under a clean name, is decided without building a path.
    if (typeof value === 'string' && badTextReason(value) === undefined && badTextReason(name) === undefined) continue;
    const problem = badValueIn(name, `A ${kind} name`) ?? badValueIn(value, `${kind} ${name}`);
    if (problem) return problem;
  }
  return undefined;
}

export function makeAjv(coerceTypes: false | 'array'): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}
