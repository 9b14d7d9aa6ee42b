import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from '@sinclair/typebox';
import type { CredentialKind } from './principal.js';
import type { Surface } from './error-handler.js';
import type { Config } from '../config.js';

/** Operation groups of the specification (section 1), plus the surfaces it names elsewhere. */
export const TAGS = [
  'Deployments', 'Deployment Creation', 'Environments', 'Env Variables', 'Regions', 'Data Model',
  'Data Model Uploads', 'GitHub', 'GitHub Connection', 'dbt Sync', 'Folders', 'Reports', 'Workbooks',
  'Notifications', 'Workspace', 'Users Admin', 'User Attributes', 'User Attribute Values',
  'Tenant Settings', 'OAuth Integrations', 'User OAuth Tokens', 'OIDC Token Configs', 'App Theme',
  'Embed', 'Embed Tenants', 'Dashboard Embed Access', 'OpenAPI Spec',
  // Not in the specification's list; each names a surface the specification describes.
  'API Keys', 'SCIM Tokens', 'SCIM', 'Authentication', 'Data API', 'Health', 'Telemetry',
] as const;

const securityScheme: Record<CredentialKind, string> = {
  accessToken: 'bearerAuth',
  apiKey: 'apiKeyAuth',
  scimToken: 'scimBearerAuth',
  dataToken: 'dataApiToken',
};

export const errorSchemaId: Record<Surface, string> = { platform: 'Error', scim: 'ScimError', data: 'DataApiError' };

const describe: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content', 207: 'Multi-status', 304: 'Not modified',
  400: 'Invalid request', 401: 'Missing, malformed, unknown, revoked or wrong-kind credential',
  403: 'Credential lacks the role or deployment scope', 404: 'Not found', 409: 'Conflict',
  412: 'Precondition failed', 413: 'Body larger than 1 MiB', 415: 'Unsupported content type',
  422: 'Limit exceeded', 500: 'Internal error',
};

/**
 * Builds the OpenAPI 3.1 document from the route schemas. Each route's `security` and its error
 * responses are derived here from what it declares (auth, surface, inputs), so they cannot drift
 * from what the route really does.
 */
export const openApiPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  app.addSchema(Type.Object({ error: Type.String() }, { $id: 'DataApiError' }));
  app.addHook('onRoute', (route) => completeOperation(route));
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Plinth platform API',
        version: '1.0.0',
        description: 'Embedding, provisioning, identity, SCIM 2.0, deployments and the data API of Plinth.',
      },
      servers: [
        {
          url: '{scheme}://{tenant}.{domain}',
          description: 'Your account. A custom domain replaces the whole host.',
          variables: {
            scheme: { default: 'https', enum: ['https', 'http'] },
            tenant: { default: opts.config.defaultTenant, description: 'Account subdomain' },
            domain: { default: opts.config.baseDomain ?? `localhost:${opts.config.port}` },
          },
        },
      ],
      tags: TAGS.map((name) => ({ name })),
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
  });
});

function completeOperation(route: RouteOptions) {
  const schema = (route.schema ??= {}) as Record<string, unknown> & { response?: Record<string, unknown> };
  const auth = route.config?.auth;
  const surface: Surface = route.config?.surface ?? 'platform';
  if (auth === undefined) return;
  schema.security = auth === 'public' ? [] : auth.kinds.map((kind) => ({ [securityScheme[kind]]: [] }));

  const codes = new Set<number>([500]);
  if (schema.body || schema.params || schema.querystring) codes.add(400);
  if (schema.body) codes.add(413).add(415);
  if (schema.params) codes.add(404);
  if (auth !== 'public') codes.add(401);
  if (auth !== 'public' && (auth.role === 'admin' || auth.kinds.includes('apiKey'))) codes.add(403);
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
