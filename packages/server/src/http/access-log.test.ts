import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createServices } from '../services.js';
import type { Store } from '../store/store.js';
import type { Services } from '../services.js';
import { openTestStore, storeKinds } from '../test-support/stores.js';
import { testConfig } from '../test-support/server.js';
import { createServerLog } from './logger.js';

const event = { command: 'deployments', success: true, version: '0.1.0', platform: 'linux-x64 node-20.19.0', machineId: 'c'.repeat(64) };

/** Issue 10, newcomer 9: telemetry events are logged at debug, so an operator's log at info is about requests that matter. */
describe.each(storeKinds)('access log levels [%s]', (kind) => {
  const config = testConfig({ PLINTH_BASE_DOMAIN: '' });
  let store: Store;
  let services: Services;
  beforeAll(async () => {
    store = await openTestStore(kind);
    services = await createServices(store, config);
    await services.accounts.create('demo');
  });
  afterAll(() => store.close());

  it.each([
    ['info', ['GET /healthz 30']],
    ['debug', ['POST /api/v1/telemetry 20', 'GET /healthz 30']],
  ])('at level %s the telemetry access line is written only at debug', async (level, expected) => {
    const chunks: string[] = [];
    const log = createServerLog(level, { write: (chunk) => chunks.push(chunk), flushSync: () => {} });
    const app = await buildApp({ config, store, services, log });
    const telemetry = await app.inject({ method: 'POST', url: '/api/v1/telemetry', headers: { host: '127.0.0.1' }, payload: event });
    expect(telemetry.statusCode, telemetry.body).toBe(202);
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.close();
    log.flushSync();
    const requests = chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((l) => l.msg === 'request');
    expect(requests.map((l) => `${l.method} ${l.path} ${l.level}`)).toEqual(expected);
  });
});
