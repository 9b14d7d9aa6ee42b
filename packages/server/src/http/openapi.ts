import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from '@sinclair/typebox';
import type { CredentialKind } from './principal.js';
import { ROLE_PERMISSIONS } from './permissions.js';
import { describeRequirement, isResourceSource } from './requirement.js';
import type { Surface } from './error-handler.js';
import type { Config } from '../config.js';
import { accountBaseUrl } from './base-url.js';
import { BODY_EXAMPLES } from './examples.js';

/**
 * Operation groups of the specification (section 1), plus the surfaces it names elsewhere, each
 * with what it holds. The document lists only the tags that have operations: a group of the
 * specification not served yet appears once its first route does.
 */
export const TAG_DESCRIPTIONS = {
  Deployments: 'Deployments of the account: the unit that holds a data model, environments and the data API.',
  'Deployment Creation': 'Creating a deployment.',
  Environments: 'Environments of a deployment (production, staging, development branches) and their tokens.',
  'Env Variables': 'Environment variables of a deployment.',
  Regions: 'Regions a deployment can run in.',
  'Data Model': 'The data model of a deployment: cubes, views and their files.',
  'Data Model Uploads': 'Uploading data model files.',
  GitHub: 'GitHub repositories as the source of a data model.',
  'GitHub Connection': 'Connecting an account to GitHub.',
  'dbt Sync': 'Synchronising a data model from a dbt project.',
  Folders: 'Folders that organise reports and workbooks.',
  Reports: 'Saved reports of a deployment.',
  Workbooks: 'Workbooks and their dashboards.',
  Notifications: 'Scheduled notifications and their recipients.',
  Workspace: 'Items of the personal and shared workspaces.',
  'Users Admin': 'Users and user groups of the account.',
  Agents: "Agents of a deployment, their skills, and the account's OpenAI-compatible LLM endpoints they call.",
  Metadata: "Cubes, views and members of a deployment's current build, as the caller's access policies show them.",
  'AI Engineer': 'Settings of the AI engineer and the region its agents run in for each user.',
  'Resource Policies': 'What users and groups may do on the account and on each deployment (actions of resource policies).',
  'User Attributes': 'Attributes defined for the users of the account, used in access policies and embedding.',
  'User Attribute Values': "A user's values of the account's user attributes.",
  'Tenant Settings': 'Settings of the account, such as embedding, creator mode and the bulk action limit.',
  'OAuth Integrations': 'OAuth clients the account uses to reach other services.',
  'User OAuth Tokens': 'OAuth tokens users hold for the integrations.',
  'OIDC Token Configs': 'OpenID Connect token configurations.',
  'App Theme': 'The look of the application and of embedded dashboards.',
  Embed: 'Signed embedding: sessions minted for external or internal users, exchanged for embed tokens.',
  'Embed Tenants': 'Groups, user attributes and provisioned users inside an embed tenant.',
  'Dashboard Embed Access': 'Which dashboards may be embedded, and by whom.',
  'OpenAPI Spec': 'This document.',
  // Not in the specification's list; each names a surface the specification describes.
  'API Keys': 'API keys: credentials for scripts and servers, scoped by role and deployments.',
  'SCIM Tokens': 'Bearer tokens that identity providers use for SCIM provisioning.',
  SCIM: 'SCIM 2.0 (RFC 7643 and RFC 7644) users and groups, for identity providers such as Okta and Entra ID.',
  Authentication: 'Signing in: the device flow of the command-line client, tokens, passwords and invites.',
  'Data API': 'Queries against the semantic layer of a deployment.',
  Health: 'Liveness and readiness, for load balancers and orchestrators.',
  Telemetry: 'Anonymous usage events of the command-line client.',
  'CI Gate': 'Runs of the CI gate: one at a time per deployment and credential, each holding a lease.',
} as const satisfies Record<string, string>;

export type Tag = keyof typeof TAG_DESCRIPTIONS;
export const TAGS = Object.keys(TAG_DESCRIPTIONS) as Tag[];

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
export const openApiPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
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
      tags: TAGS.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
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
    (auth.kinds.includes('apiKey') || (auth.kinds.includes('accessToken') && !ROLE_PERMISSIONS.member.has(auth.permission)))
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
