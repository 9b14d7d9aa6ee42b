import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type PlinthApp } from '../app.js';
import { createServices, type Services } from '../services.js';
import type { Store } from '../store/store.js';
import { openTestStore } from '../test-support/stores.js';
import { testConfig } from '../test-support/server.js';
import { deploymentParam, requires, type Requirement } from './requirement.js';
import type { CredentialKind } from './principal.js';

/** A route that accepts a kind of credential nothing verifies must stop the app, not answer 500 later. */
describe('auth declarations at start-up', () => {
  const config = testConfig();
  let store: Store;
  let services: Services;
  let app: PlinthApp | undefined;
  // One store for every app built here: opening one is the slow part.
  beforeAll(async () => {
    store = await openTestStore('pglite');
    services = await createServices(store, config);
  }, 120_000);
  afterEach(async () => {
    await app?.close().catch(() => undefined);
  });
  afterAll(async () => {
    await store?.close();
  });

  const appWith = async (kinds: readonly CredentialKind[]) => {
    app = await buildApp({ config, store, services, log: false });
    app.get('/api/v1/deployments/:deploymentId/probe', {
      config: { auth: requires('DeploymentRead', { kinds, resource: deploymentParam() }) },
      schema: { operationId: 'probeDeployment', tags: ['Deployments'] },
      handler: async () => ({}),
    });
    return app;
  };

  // Embed tokens reach the data API as bare JWTs, verified under the dataToken kind; none verifies the embedToken kind itself.
  it.each([['embedToken', 'embed tokens']] as const)(
    'a route accepting %s tokens, which have no verifier, fails app.ready() naming the route and the kind',
    async (kind, named) => {
      const built = await appWith(['apiKey', kind]);
      await expect(built.ready()).rejects.toThrow(
        `Route GET /api/v1/deployments/:deploymentId/probe accepts ${named}, but no verifier for them is registered`,
      );
    },
  );

  it('a route accepting only verified kinds starts, and states its permission in the spec', async () => {
    const built = await appWith(['apiKey', 'accessToken']);
    await built.ready();
    const operation = (built.swagger() as any).paths['/api/v1/deployments/{deploymentId}/probe'].get;
    expect(operation['x-plinth-permission']).toBe('DeploymentRead');
    expect(operation.description).toBe(
      'Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.',
    );
  });

  it('a route whose requirement does not say whether it is account-wide is refused when added', async () => {
    app = await buildApp({ config, store, services, log: false });
    const undeclared = { ...requires('AccountManage', { resource: 'account' }), resource: undefined } as unknown as Requirement;
    expect(() => app!.get('/api/v1/unscoped', { config: { auth: undeclared } }, async () => ({}))).toThrow(
      'Route GET /api/v1/unscoped does not say whether it is account-wide',
    );
  });

  it('a route that declares no config.auth is refused when added', async () => {
    app = await buildApp({ config, store, services, log: false });
    expect(() => app!.get('/api/v1/undeclared', async () => ({}))).toThrow('Route GET /api/v1/undeclared does not declare config.auth');
  });
});
