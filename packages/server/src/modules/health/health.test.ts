import { expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';

describeOnStores('health', (server) => {
  it('/healthz answers without credentials or an account', async () => {
    const response = await server().app.inject({ method: 'GET', url: '/healthz', headers: { host: 'unknown.plinth.test' } });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ status: 'ok' });
  });

  it('/readyz checks the store', async () => {
    const response = await server().app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ status: 'ready' });
  });
});
