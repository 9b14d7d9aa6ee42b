/**
 * Examples of the main request and response bodies, by component `$id`, added to the served
 * document. They live apart from the schemas so that a schema change and its example are
 * reviewed together here; the spec test validates every example against its schema, so an
 * example that no longer fits fails the build rather than misleading a reader.
 */
const at = '2026-03-01T09:30:00.000Z';
const later = '2026-03-02T14:05:00.000Z';

export const BODY_EXAMPLES: Record<string, unknown> = {
  CreateApiKeyInput: { name: 'ci-deploys', role: 'member', deploymentIds: [12] },
  CreatedApiKey: {
    id: 7,
    name: 'ci-deploys',
    role: 'member',
    deploymentIds: [12],
    permissions: null,
    prefix: 'sk-4fQ2x',
    userId: 3,
    createdAt: at,
    lastUsedAt: null,
    revokedAt: null,
    key: 'sk-4fQ2xV9mJd0bL7wRkT2aPq8sNc',
  },
  CreateDeploymentInput: { name: 'sales-analytics', region: 'eu-west-1' },
  Deployment: {
    id: 12,
    name: 'sales-analytics',
    region: 'eu-west-1',
    deploymentUrl: 'https://acme.plinth.example.com/d/12',
    creationStep: 'created',
    createdAt: at,
  },
  CreateOAuthIntegrationInput: {
    name: 'Okta',
    type: 'okta',
    authUrl: 'https://acme.okta.com/oauth2/v1/authorize',
    tokenUrl: 'https://acme.okta.com/oauth2/v1/token',
    clientId: '0oa1b2c3d4',
    clientSecret: 'a-client-secret',
    redirectUri: 'https://acme.plinth.example.com/oauth/callback',
    scopes: ['openid', 'email'],
  },
  OAuthIntegration: {
    id: 4,
    name: 'Okta',
    type: 'okta',
    authUrl: 'https://acme.okta.com/oauth2/v1/authorize',
    tokenUrl: 'https://acme.okta.com/oauth2/v1/token',
    clientId: '0oa1b2c3d4',
    redirectUri: 'https://acme.plinth.example.com/oauth/callback',
    config: null,
    scopes: ['openid', 'email'],
    hasClientSecret: true,
    createdAt: at,
    updatedAt: later,
  },
  CreateUserInput: { email: 'ann@acme.example.com', displayName: 'Ann Lee', role: 'member' },
  User: {
    id: 3,
    email: 'ann@acme.example.com',
    displayName: 'Ann Lee',
    role: 'member',
    active: true,
    groups: [{ id: 5, name: 'Analysts' }],
    createdAt: at,
    updatedAt: later,
  },
  CreateUserGroupInput: { name: 'Analysts', description: 'Read every dashboard' },
  UserGroup: { id: 5, name: 'Analysts', description: 'Read every dashboard', userCount: 12, createdAt: at, updatedAt: later },
  CreateUserAttributeInput: { name: 'region', type: 'string', displayName: 'Region', defaultValue: 'emea', description: 'Sales region' },
  UserAttribute: {
    id: 9,
    name: 'region',
    type: 'string',
    displayName: 'Region',
    defaultValue: 'emea',
    description: 'Sales region',
    createdAt: at,
    updatedAt: later,
  },
  GenerateSessionInput: {
    deploymentId: 12,
    externalId: 'customer-42-user-7',
    email: 'bob@customer42.example.com',
    userProfile: { displayName: 'Bob Stone' },
    groups: ['viewers'],
    userAttributes: [{ name: 'region', value: 'emea' }],
  },
  GenerateSessionResponse: { sessionId: 'es_8Jq2LmV0cXr5TtYw' },
  EmbedTokenResponse: { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjdXN0b21lci00Mi11c2VyLTcifQ.c2lnbmF0dXJl' },
  ProvisionEmbedUserInput: { externalId: 'customer-42-user-7', email: 'bob@customer42.example.com', groups: ['viewers'] },
  ProvisionEmbedUsersInput: {
    users: [
      { externalId: 'customer-42-user-7', email: 'bob@customer42.example.com', groups: ['viewers'] },
      { externalId: 'customer-42-user-8', tenantGroups: ['editors'] },
    ],
  },
  ProvisionEmbedUsersResult: {
    succeeded: [{ index: 0, externalId: 'customer-42-user-7' }],
    failed: [{ index: 1, externalId: 'customer-42-user-8', error: { status: 400, message: 'Groups with names editors not found' } }],
  },
  UpdateTenantSettingsInput: { useCreatorMode: true, bulkActionLimit: 500 },
  TenantSettings: { embeddingEnabled: true, useCreatorMode: true, bulkActionLimit: 500, showDashboardChat: false, maxExternalUsers: 10000 },
  EmbedSessionIdInput: { sessionId: 'es_8Jq2LmV0cXr5TtYw' },
};
