import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { routeConfig } from './route-config.js';

describe('routeConfig', () => {
  it('is the very config routeOptions gives, on a route and on the not-found route, without building routeOptions', async () => {
    const app = Fastify();
    const seen: Array<[unknown, unknown]> = [];
    app.addHook('onRequest', (request, _reply, done) => {
      const expected = request.routeOptions.config;
      // Found without building routeOptions: the point of it.
      Object.defineProperty(request, 'routeOptions', {
        get: () => {
          throw new Error('routeOptions was built');
        },
      });
      seen.push([routeConfig(request), expected]);
      done();
    });
    app.get('/a', { config: { accessLogLevel: 'debug' } }, async () => ({}));
    await app.inject({ url: '/a' });
    await app.inject({ url: '/missing' });
    await app.close();
    expect(seen).toHaveLength(2);
    expect((seen[0]![0] as { accessLogLevel?: string }).accessLogLevel).toBe('debug');
    for (const [ours, fastify] of seen) expect(ours).toBe(fastify);
  });
});
