import { beforeAll, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';

const operations = [
  ['post', '/api/v1/embed/generate-session', 'generateSession', 'Embed', ['200', '400', '401', '403', '404', '422']],
  ['post', '/api/v1/embed/session/token', 'postTokenBySessionId', 'Embed', ['200', '400', '401']],
  ['post', '/api/v1/embed/session/revoke', 'revokeEmbedSession', 'Embed', ['204', '400']],
  ['get', '/api/v1/embed/sessions', 'listEmbedSessions', 'Embed', ['200', '400', '401', '403']],
  ['get', '/api/v1/embed-tenants/{embedTenantName}/groups', 'getGroups', 'Embed Tenants', ['200', '400', '401', '403', '404']],
  [
    'delete',
    '/api/v1/embed-tenants/{embedTenantName}/groups/{id}',
    'deleteEmbedTenantGroup',
    'Embed Tenants',
    ['200', '401', '403', '404'],
  ],
  ['get', '/api/v1/embed-tenants/{embedTenantName}/user-attributes', 'getUserAttributes', 'Embed Tenants', ['200', '401', '403', '404']],
  [
    'delete',
    '/api/v1/embed-tenants/{embedTenantName}/user-attributes/{id}',
    'deleteEmbedTenantUserAttribute',
    'Embed Tenants',
    ['200', '401', '403', '404'],
  ],
  ['get', '/api/v1/embed-tenants/{embedTenantName}/users', 'listEmbedTenantUsers', 'Embed Tenants', ['200', '401', '403', '404']],
  [
    'get',
    '/api/v1/embed-tenants/{embedTenantName}/users/{externalId}',
    'getEmbedTenantUser',
    'Embed Tenants',
    ['200', '401', '403', '404'],
  ],
  ['post', '/api/v1/embed-tenants/{embedTenantName}/user', 'provisionEmbedUser', 'Embed Tenants', ['200', '400', '401', '403', '422']],
  ['post', '/api/v1/embed-tenants/{embedTenantName}/users', 'provisionEmbedUsers', 'Embed Tenants', ['200', '400', '401', '403']],
] as const;

describeOnStores('embedding in the served spec', (server) => {
  let doc: any;
  beforeAll(async () => {
    const response = await server().app.inject({ method: 'GET', url: '/api/v1/spec', headers: { host: 'anything' } });
    doc = JSON.parse(response.body);
  });

  it.each(operations)('%s %s is %s, tagged %s, with its responses', (method, path, operationId, tag, statuses) => {
    const op = doc.paths[path]?.[method];
    expect(op, `${method} ${path}`).toBeDefined();
    expect(op).toMatchObject({ operationId, tags: [tag], summary: expect.any(String) });
    for (const status of statuses) expect(Object.keys(op.responses), status).toContain(status);
  });

  it('generate-session and embed-tenant admin declare only the Api-Key scheme; the exchange declares none', () => {
    expect(doc.paths['/api/v1/embed/generate-session'].post.security).toEqual([{ apiKeyAuth: [] }]);
    expect(doc.paths['/api/v1/embed-tenants/{embedTenantName}/groups'].get.security).toEqual([{ apiKeyAuth: [] }]);
    expect(doc.paths['/api/v1/embed/session/token'].post.security).toEqual([]);
  });

  it('GenerateSessionInput has every field of the reference GenerateSession body, each optional one nullable', () => {
    const schema = doc.components.schemas.GenerateSessionInput;
    const reference = [
      'creatorMode',
      'deploymentId',
      'email',
      'embedTenantName',
      'embedTheme',
      'ephemeralTtlSeconds',
      'externalId',
      'groupDefinitions',
      'groups',
      'internalId',
      'isEphemeral',
      'publicDashboardId',
      'roles',
      'securityContext',
      'userAttributeDefinitions',
      'userAttributes',
      'userProfile',
    ];
    expect(schema.required).toEqual(['deploymentId']);
    for (const field of reference.filter((f) => f !== 'deploymentId')) {
      const property = schema.properties[field];
      expect(property, field).toBeDefined();
      expect(property.anyOf ?? property.oneOf, field).toContainEqual({ type: 'null' });
    }
    expect(doc.components.schemas.EmbedTheme.properties).toHaveProperty('analyticsChat');
    expect(doc.components.schemas.TenantSettings.properties).toHaveProperty('embeddingEnabled');
  });
});
