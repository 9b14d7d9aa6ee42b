import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { TAGS } from '../../http/openapi.js';
import { describeOnStores } from '../../test-support/server.js';

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

  it('gives every operation a unique operationId, a known tag, a summary, security and error responses', () => {
    const ops = operationsOf(doc);
    const ids = ops.map(({ op }) => op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const known = new Set<string>(TAGS);
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
      'createApiKey', 'listApiKeys', 'revokeApiKey', 'createScimToken', 'listScimTokens', 'revokeScimToken',
      'getOAuthIntegration', 'listOAuthIntegrations', 'createOAuthIntegration', 'updateOAuthIntegration',
      'deleteOAuthIntegration', 'createDeployment', 'getDeployments', 'getDeployment',
    ];
    expect(required.filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe('spec helpers', () => {
  it('lists operations of every method', () => {
    const ops = operationsOf({ paths: { '/a': { get: { operationId: 'x' }, post: { operationId: 'y' } } } });
    expect(ops.map((o) => o.op.operationId)).toEqual(['x', 'y']);
  });
});
