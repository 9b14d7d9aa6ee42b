import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { BODY_EXAMPLES } from '../../http/examples.js';
import { moduleTags, serverOf } from '../../http/openapi.js';
import { loadModules } from '../index.js';
import { makeAjv } from '../../http/validation.js';
import { compileAllSchemas } from '../../http/schema-compilers.js';
import { describeOnStores, testConfig } from '../../test-support/server.js';

type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  security?: unknown[];
  responses?: Record<string, unknown>;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

function operationsOf(doc: any): Array<{ method: string; path: string; op: Operation }> {
  return Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method]! })),
  );
}

describeOnStores('GET /api/v1/spec', (server) => {
  let doc: any;
  beforeAll(async () => {
    const response = await server().app.inject({ method: 'GET', url: '/api/v1/spec', headers: { host: 'anything' } });
    expect(response.statusCode).toBe(200);
    doc = JSON.parse(response.body);
  });

  it('4.6/9: is served without credentials as OpenAPI 3.1.0, API version 1.0.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
  });

  it('passes a strict OpenAPI 3.1 validator', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('the validator is not a rubber stamp: a dangling $ref and a missing info fail it', async () => {
    const broken = structuredClone(doc);
    delete broken.info;
    expect((await new Validator().validate(broken)).valid).toBe(false);
    const dangling = structuredClone(doc);
    dangling.paths['/api/v1/oauth-integrations/{id}'].get.responses['200'].content['application/json'].schema = {
      $ref: '#/components/schemas/NoSuchSchema',
    };
    const validator = new Validator();
    const result = await validator.validate(dangling);
    expect(result.valid).toBe(false);
  });

  it('names the account with a {tenant} server variable', () => {
    expect(doc.servers[0].url).toContain('{tenant}');
    expect(doc.servers[0].variables.tenant.default).toBe(server().config.defaultTenant);
  });

  it('5: declares a security scheme for each of the four credential kinds', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(
      ['apiKeyAuth', 'bearerAuth', 'dataApiToken', 'scimBearerAuth'].sort(),
    );
  });

  it('gives every operation a unique operationId, a known tag, a summary, security and error responses', async () => {
    const ops = operationsOf(doc);
    const ids = ops.map(({ op }) => op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const known = new Set(Object.keys(moduleTags(await loadModules())));
    for (const { method, path, op } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.tags?.length, where).toBe(1);
      expect(known.has(op.tags![0]!), `${where} tag ${op.tags![0]}`).toBe(true);
      expect(op.summary, where).toBeTruthy();
      expect(Array.isArray(op.security), where).toBe(true);
      expect(Object.keys(op.responses ?? {}), where).toContain('500');
      if ((op.security ?? []).length > 0) expect(Object.keys(op.responses!), where).toContain('401');
    }
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['OAuth Integrations', 'Embed', 'Embed Tenants']));
  });

  it("compiles every route's validators and response serializers (they compile lazily when served)", () => {
    // Every operation has a response serializer at least, so the count says the app's compilers were all reached.
    expect(compileAllSchemas(server().app)).toBeGreaterThan(operationsOf(doc).length);
  });

  it('contains every registered route, and nothing else', () => {
    const inSpec = new Set(operationsOf(doc).map(({ method, path }) => `${method.toUpperCase()} ${path}`));
    const registered = new Set(server().app.registeredRoutes);
    expect(registered.size).toBeGreaterThan(10);
    expect([...registered].sort()).toEqual([...inSpec].sort());
  });

  it('4.1: getOAuthIntegration is tagged OAuth Integrations, declares bearer security and accepts API keys', () => {
    const op = doc.paths['/api/v1/oauth-integrations/{id}'].get as Operation;
    expect(op.operationId).toBe('getOAuthIntegration');
    expect(op.tags).toEqual(['OAuth Integrations']);
    expect(op.security).toEqual(expect.arrayContaining([{ bearerAuth: [] }, { apiKeyAuth: [] }]));
    const ok = (op.responses!['200'] as any).content['application/json'].schema;
    expect(ok.$ref).toBe('#/components/schemas/OAuthIntegration');
    const integration = doc.components.schemas.OAuthIntegration;
    expect(integration.required).toEqual(
      expect.arrayContaining(['id', 'name', 'type', 'authUrl', 'tokenUrl', 'clientId', 'redirectUri', 'createdAt', 'updatedAt']),
    );
    expect(integration.properties.authUrl.format).toBe('url');
    expect(JSON.stringify(integration)).not.toContain('clientSecret');
  });

  it('issue 2 point 10: the operation ids other tools look for exist', () => {
    const ids = new Set(operationsOf(doc).map(({ op }) => op.operationId));
    const required = [
      'createApiKey',
      'listApiKeys',
      'revokeApiKey',
      'createScimToken',
      'listScimTokens',
      'revokeScimToken',
      'getOAuthIntegration',
      'listOAuthIntegrations',
      'createOAuthIntegration',
      'updateOAuthIntegration',
      'deleteOAuthIntegration',
      'createDeployment',
      'getDeployments',
      'getDeployment',
    ];
    expect(required.filter((id) => !ids.has(id))).toEqual([]);
  });
});

/**
 * Operations the reference (Cube Cloud's OPERATIONS.md) also has, under an operationId that is
 * unique there: the served operation carries the same id, so clients generated from either work.
 */
const REFERENCE_IDS: Array<[method: string, path: string, operationId: string]> = [
  ['get', '/api/v1/deployments', 'getDeployments'],
  ['get', '/api/v1/deployments/{deploymentId}', 'getDeployment'],
  ['get', '/api/v1/users', 'getUsers'],
  ['get', '/api/v1/users/me', 'getMe'],
  ['get', '/api/v1/users/embed-theme', 'getEmbedTheme'],
  ['get', '/api/v1/app-theme', 'getAppTheme'],
  ['get', '/api/v1/user-groups', 'listGroups'],
  ['post', '/api/v1/embed/generate-session', 'generateSession'],
  ['post', '/api/v1/embed/session/token', 'postTokenBySessionId'],
  ['get', '/api/v1/embed-tenants/{embedTenantName}/groups', 'getGroups'],
  ['get', '/api/v1/embed-tenants/{embedTenantName}/user-attributes', 'getUserAttributes'],
  ['get', '/api/scim/v2/Users', 'listUsers'],
  ['post', '/api/scim/v2/Users', 'createUser'],
  ['get', '/api/scim/v2/Users/{id}', 'getUser'],
  ['put', '/api/scim/v2/Users/{id}', 'replaceUser'],
  ['patch', '/api/scim/v2/Users/{id}', 'patchUser'],
  ['delete', '/api/scim/v2/Users/{id}', 'deleteUser'],
  ['post', '/api/scim/v2/Groups', 'createGroup'],
  ['get', '/api/scim/v2/Groups/{id}', 'getGroup'],
  ['put', '/api/scim/v2/Groups/{id}', 'replaceGroup'],
  ['patch', '/api/scim/v2/Groups/{id}', 'patchGroup'],
  ['get', '/api/v1/deployments/{deploymentId}/workbooks', 'getWorkbooks'],
  ['post', '/api/v1/deployments/{deploymentId}/workbooks', 'createWorkbook'],
  ['get', '/api/v1/deployments/{deploymentId}/workbooks/{workbookId}', 'getWorkbook'],
  ['put', '/api/v1/deployments/{deploymentId}/workbooks/{workbookId}', 'updateWorkbook'],
  ['delete', '/api/v1/deployments/{deploymentId}/workbooks/{workbookId}', 'deleteWorkbook'],
  ['put', '/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/dashboard', 'updateWorkbookDashboard'],
  ['post', '/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate', 'duplicateWorkbook'],
  ['post', '/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/publish', 'publishDashboard'],
  ['get', '/api/v1/embed/dashboard/{publicId}', 'getDashboard'],
  ['get', '/api/v1/deployments/{deploymentId}/agents', 'getAgents'],
  ['get', '/api/v1/deployments/{deploymentId}/agent-skills', 'getAgentSkills'],
  ['post', '/api/v1/meta', 'getMetadata'],
  ['get', '/api/v1/ai-engineer/settings', 'getAIEngineerSettings'],
  ['get', '/api/v1/ai-engineer/active-region', 'getMyActiveAgentRegion'],
];

/** Deletes the reference answers with 200 and a JSON body rather than 204. */
const DELETES_WITH_BODY = [
  '/api/v1/groups/{id}',
  '/api/v1/user-attributes/{id}',
  '/api/v1/embed-tenants/{embedTenantName}/groups/{id}',
  '/api/v1/embed-tenants/{embedTenantName}/user-attributes/{id}',
  '/api/v1/deployments/{deploymentId}/workbooks/{workbookId}',
];

/** The main request and response bodies, which carry an example. */
const WITH_EXAMPLES = [
  'CreateApiKeyInput',
  'CreatedApiKey',
  'CreateDeploymentInput',
  'Deployment',
  'CreateOAuthIntegrationInput',
  'OAuthIntegration',
  'CreateUserInput',
  'User',
  'CreateUserGroupInput',
  'UserGroup',
  'CreateUserAttributeInput',
  'UserAttribute',
  'GenerateSessionInput',
  'GenerateSessionResponse',
  'EmbedTokenResponse',
  'ProvisionEmbedUserInput',
  'ProvisionEmbedUsersInput',
  'ProvisionEmbedUsersResult',
  'UpdateTenantSettingsInput',
  'TenantSettings',
  'Deleted',
];

function schemasIn(node: unknown, path = ''): Array<[string, Record<string, unknown>]> {
  if (Array.isArray(node)) return node.flatMap((item, i) => schemasIn(item, `${path}/${i}`));
  if (!node || typeof node !== 'object') return [];
  const entries = Object.entries(node as Record<string, unknown>);
  return [[path, node as Record<string, unknown>], ...entries.flatMap(([key, child]) => schemasIn(child, `${path}/${key}`))];
}

describeOnStores('the published contract', (server) => {
  let doc: any;
  beforeAll(async () => {
    const response = await server().app.inject({ method: 'GET', url: '/api/v1/spec', headers: { host: 'anything' } });
    doc = JSON.parse(response.body);
  });

  it('lists a fixed set of strings as an enum, never as an anyOf of constants', () => {
    const unions = schemasIn(doc).filter(([, schema]) =>
      (['anyOf', 'oneOf'] as const).some(
        (k) => Array.isArray(schema[k]) && (schema[k] as Array<{ const?: unknown }>).every((b) => b.const !== undefined),
      ),
    );
    expect(unions.map(([path]) => path)).toEqual([]);
    expect(doc.components.schemas.Role).toMatchObject({ type: 'string', enum: ['admin', 'member'] });
    expect(doc.components.schemas.CreateUserAttributeInput.properties.type.enum).toEqual([
      'string',
      'number',
      'string_array',
      'number_array',
    ]);
  });

  it('describes every tag it lists, and lists only tags that have operations, every one of them', () => {
    const used = new Set(operationsOf(doc).flatMap(({ op }) => op.tags ?? []));
    const listed = doc.tags.map((t: { name: string }) => t.name);
    expect(listed.sort()).toEqual([...used].sort());
    for (const tag of doc.tags) expect(tag.description, tag.name).toMatch(/\w{3,}/);
  });

  it('types the entries of bulk provisioning', () => {
    const users = doc.components.schemas.ProvisionEmbedUsersInput.properties.users;
    expect(users.items).toEqual({ $ref: '#/components/schemas/ProvisionEmbedUserInput' });
  });

  it.each(REFERENCE_IDS)('%s %s is %s, as in the reference', (method, path, operationId) => {
    expect(doc.paths[path]?.[method]?.operationId).toBe(operationId);
  });

  it.each(DELETES_WITH_BODY)('DELETE %s answers 200 with a JSON body, as the reference does', (path) => {
    const responses = doc.paths[path].delete.responses;
    expect(Object.keys(responses)).not.toContain('204');
    expect(responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Deleted' });
  });

  it('has examples on the main bodies, and every example fits its schema', () => {
    expect(WITH_EXAMPLES.filter((id) => !doc.components.schemas[id]?.examples?.length)).toEqual([]);
    const ajv = makeAjv(false);
    ajv.addSchema({ $id: 'spec', components: doc.components });
    const misfits: string[] = [];
    for (const [id, schema] of Object.entries(doc.components.schemas as Record<string, { examples?: unknown[] }>)) {
      const validate = ajv.compile({ $ref: `spec#/components/schemas/${id}` });
      for (const example of schema.examples ?? []) {
        if (!validate(example)) misfits.push(`${id}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(misfits).toEqual([]);
    expect(Object.keys(BODY_EXAMPLES).filter((id) => !doc.components.schemas[id])).toEqual([]);
  });
});

describe('the servers entry', () => {
  it.each<[string, Record<string, string>, string]>([
    [
      'the public URL when set',
      { PLINTH_BASE_DOMAIN: '', PLINTH_PUBLIC_URL: 'https://analytics.example.com' },
      'https://analytics.example.com',
    ],
    ['else the listening address', { PLINTH_BASE_DOMAIN: '', HOST: '10.0.0.5', PORT: '8080' }, 'http://10.0.0.5:8080'],
    ['localhost for a wildcard address', { PLINTH_BASE_DOMAIN: '', HOST: '0.0.0.0', PORT: '4000' }, 'http://localhost:4000'],
    ['an account subdomain with a base domain', { PLINTH_BASE_DOMAIN: 'plinth.example.com' }, 'http://{tenant}.plinth.example.com'],
  ])('is %s', (_label, env, url) => {
    const config = { ...testConfig(env), ...(env.PLINTH_PUBLIC_URL ? { publicUrl: env.PLINTH_PUBLIC_URL } : {}) };
    expect(serverOf(config).url).toBe(url);
  });
});

describe('spec helpers', () => {
  it('lists operations of every method', () => {
    const ops = operationsOf({ paths: { '/a': { get: { operationId: 'x' }, post: { operationId: 'y' } } } });
    expect(ops.map((o) => o.op.operationId)).toEqual(['x', 'y']);
  });
});
