import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from '@sinclair/typebox';
import type { CredentialKind } from './principal.js';
import { permissionCatalog } from './permissions.js';
import { describeRequirement, isResourceSource } from './requirement.js';
import type { Surface } from './error-handler.js';
import type { Config } from '../config.js';
import { accountBaseUrl } from './base-url.js';
import { BODY_EXAMPLES } from './examples.js';
import type { PlinthModule } from '../modules/module.js';

/**
 * The tags of the document, each with what it holds, as the modules declare them (a tag is
 * declared by one module, and other modules' routes may use it). The document lists only the
 * tags that have operations.
 */
export function moduleTags(modules: readonly PlinthModule[]): Record<string, string> {
  const tags: Record<string, string> = {};
  const declaredBy = new Map<string, string>();
  for (const module of modules) {
    for (const [name, description] of Object.entries(module.tags ?? {})) {
      const other = declaredBy.get(name);
      if (other) throw new Error(`The modules ${other} and ${module.name} both declare the tag "${name}"`);
      declaredBy.set(name, module.name);
      tags[name] = description;
    }
  }
  return tags;
}

const securityScheme: Record<CredentialKind, string> = {
  accessToken: 'bearerAuth',
  apiKey: 'apiKeyAuth',
  scimToken: 'scimBearerAuth',
  dataToken: 'dataApiToken',
  // No route accepts embed tokens before issue 14 registers their verifier and this scheme.
  embedToken: 'embedToken',
};

export const errorSchemaId: Record<Surface, string> = { platform: 'Error', scim: 'ScimError', data: 'DataApiError' };

const describe: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  207: 'Multi-status',
  304: 'Not modified',
  400: 'Invalid request',
  401: 'Missing, malformed, unknown, revoked or wrong-kind credential',
  403: 'Credential lacks the role or deployment scope',
  404: 'Not found',
  409: 'Conflict',
  412: 'Precondition failed',
  413: 'Body larger than 1 MiB',
  415: 'Unsupported content type',
  422: 'Limit exceeded',
  500: 'Internal error',
};

/**
 * Builds the OpenAPI 3.1 document from the route schemas. Each route's `security` and its error
 * responses are derived here from what it declares (auth, surface, inputs), so they cannot drift
 * from what the route really does.
 */
export const openApiPlugin = fp(async (app: FastifyInstance, opts: { config: Config; tags: Record<string, string> }) => {
  app.addSchema(Type.Object({ error: Type.String() }, { $id: 'DataApiError' }));
  const used = new Set<string>();
  app.addHook('onRoute', (route) => {
    completeOperation(route);
    for (const tag of (route.schema?.tags as string[] | undefined) ?? []) used.add(tag);
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Plinth platform API',
        version: '1.0.0',
        description: 'Embedding, provisioning, identity, SCIM 2.0, deployments and the data API of Plinth.',
      },
      servers: [serverOf(opts.config)],
      tags: Object.entries(opts.tags).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Access token from `plinth login`.' },
          apiKeyAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Send `Api-Key <key>`.' },
          scimBearerAuth: { type: 'http', scheme: 'bearer', description: 'SCIM token; accepted only under /api/scim/v2.' },
          dataApiToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Data API token, no scheme word.' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (documentObject) => {
      const doc = (documentObject as { openapiObject: OpenApiDocument }).openapiObject;
      return { ...doc, tags: doc.tags?.filter((tag) => used.has(tag.name)), components: withExamples(doc.components) } as never;
    },
  });
});

interface OpenApiDocument {
  tags?: Array<{ name: string }>;
  components?: { schemas?: Record<string, Record<string, unknown>> };
}

function withExamples(components: OpenApiDocument['components']): OpenApiDocument['components'] {
  const schemas = { ...components?.schemas };
  for (const [id, example] of Object.entries(BODY_EXAMPLES)) {
    const schema = schemas[id];
    if (schema && !schema.examples) schemas[id] = { ...schema, examples: [example] };
  }
  return { ...components, schemas };
}

/**
 * The address clients call: PLINTH_PUBLIC_URL, else the address the server listens on. With a
 * base domain each account has its own host, so the account is a variable of the URL.
 */
export function serverOf(config: Config) {
  if (config.baseDomain) {
    return {
      url: accountBaseUrl(config, { name: '{tenant}', custom_domain: null }),
      description: 'Your account, at its subdomain. A custom domain replaces the whole host.',
      variables: { tenant: { default: config.defaultTenant, description: 'Account subdomain' } },
    };
  }
  return { url: accountBaseUrl(config, { name: config.defaultTenant, custom_domain: null }), description: 'This server' };
}

function completeOperation(route: RouteOptions) {
  const schema = (route.schema ??= {}) as Record<string, unknown> & { response?: Record<string, unknown> };
  const auth = route.config?.auth;
  const surface: Surface = route.config?.surface ?? 'platform';
  // The auth plugin refuses a route that declares nothing, or no resource, naming it.
  if (auth === undefined || (auth !== 'public' && !isResourceSource(auth.resource))) return;
  schema.security = auth === 'public' ? [] : auth.kinds.map((kind) => ({ [securityScheme[kind]]: [] }));
  if (auth !== 'public') {
    // The permission, stated from the same declaration the auth plugin enforces.
    schema['x-plinth-permission'] = auth.permission;
    if (auth.stricterWhen) {
      schema['x-plinth-stricter-permission'] = { permission: auth.stricterWhen.permission, whenBodySets: auth.stricterWhen.bodySets };
    }
    const sentence = describeRequirement(auth);
    const described = typeof schema.description === 'string' ? schema.description : '';
    if (!described.includes(sentence)) schema.description = described ? `${described} ${sentence}` : sentence;
  }

  const codes = new Set<number>([500]);
  if (schema.body || schema.params || schema.querystring) codes.add(400);
  if (schema.body) codes.add(413).add(415);
  if (schema.params) codes.add(404);
  if (auth !== 'public') codes.add(401);
  if (
    auth !== 'public' &&
    (auth.kinds.includes('apiKey') || (auth.kinds.includes('accessToken') && !permissionCatalog().roles.member.has(auth.permission)))
  ) {
    codes.add(403);
  }
  const response = (schema.response ??= {});
  for (const code of codes) {
    response[code] ??= Type.Ref(errorSchemaId[surface], { description: describe[code] });
  }
  for (const [code, value] of Object.entries(response)) {
    if (value && typeof value === 'object' && !('description' in value)) {
      response[code] = { ...value, description: describe[Number(code)] ?? (Number(code) >= 400 ? 'Error' : 'Success') };
    }
  }
}
