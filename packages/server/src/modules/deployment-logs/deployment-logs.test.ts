import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';
import type { LogEntry } from './public.js';

/** A deployment with five lines: two builds' worth, from two pods, production and dev. */
async function deploymentWithLogs(server: TestServer, account: TestAccount) {
  const deployment = await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost');
  const line = (source: LogEntry['source'], pod: string, container: string, message: string): LogEntry => ({
    accountId: account.id,
    deploymentId: deployment.id,
    source,
    pod,
    container,
    level: 'info',
    message,
  });
  for (const entry of [
    line('production', 'pod-a', 'builder', 'p1'),
    line('dev', 'pod-b', 'builder', 'd1'),
    line('production', 'pod-b', 'builder', 'p2'),
    line('dev', 'pod-a', 'query', 'd2'),
    line('production', 'pod-a', 'builder', 'p3'),
  ]) {
    await server.services.deploymentLogs.append(entry);
  }
  return deployment.id;
}

describeOnStores('deployment logs: list', (server) => {
  const get = (account: TestAccount, url: string) => account.request({ method: 'GET', url, as: account.member });
  const messages = (body: { items: Array<{ message: string }> }) => body.items.map((line) => line.message);

  it('lists every line oldest first, in the documented shape', async () => {
    const account = await server().newAccount();
    const id = await deploymentWithLogs(server(), account);
    const response = await get(account, `/api/v1/deployments/${id}/logs`);
    expect(response.status, response.text).toBe(200);
    expect(messages(response.body)).toEqual(['p1', 'd1', 'p2', 'd2', 'p3']);
    expect(response.body.items[0]).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      source: 'production',
      pod: 'pod-a',
      container: 'builder',
      level: 'info',
      buildId: null,
      message: 'p1',
    });
  });

  it.each([
    ['source=production', ['p1', 'p2', 'p3']],
    ['source=dev', ['d1', 'd2']],
    ['pod=pod-b', ['d1', 'p2']],
    ['container=query', ['d2']],
    ['source=production&pod=pod-a', ['p1', 'p3']],
    ['limit=2', ['d2', 'p3']],
    ['since=SECOND', ['p2', 'd2', 'p3']],
    ['since=SECOND&limit=1', ['p2']],
    ['since=LAST', []],
    ['pod=nobody', []],
  ])('filters: %s', async (query, expected) => {
    const account = await server().newAccount();
    const id = await deploymentWithLogs(server(), account);
    const all = (await get(account, `/api/v1/deployments/${id}/logs`)).body.items;
    const url = `/api/v1/deployments/${id}/logs?${query.replace('SECOND', all[1].id).replace('LAST', all[4].id)}`;
    const response = await get(account, url);
    expect(response.status, response.text).toBe(200);
    expect(messages(response.body)).toEqual(expected);
  });

  it("never shows another deployment's lines", async () => {
    const account = await server().newAccount();
    await deploymentWithLogs(server(), account);
    const empty = await server().services.deployments.create(account.id, { name: 'quiet' }, 'http://localhost');
    expect((await get(account, `/api/v1/deployments/${empty.id}/logs`)).body).toEqual({ items: [] });
  });

  it.each([
    ['source=staging', /source/],
    ['limit=0', /limit/],
    ['limit=1001', /limit/],
    ['since=-1', /since/],
    ['since=yesterday', /since/],
    ['follow=maybe', /follow/],
    ['level=error', /level/],
  ])('refuses %s with 400 naming it', async (query, pattern) => {
    const account = await server().newAccount();
    const id = await deploymentWithLogs(server(), account);
    const response = await get(account, `/api/v1/deployments/${id}/logs?${query}`);
    expect(response.status, response.text).toBe(400);
    expect(response.body.error).toMatch(pattern);
  });

  it('a missing deployment is 404, when followed too', async () => {
    const account = await server().newAccount();
    for (const query of ['', '?follow=true']) {
      const response = await get(account, `/api/v1/deployments/424242/logs${query}`);
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('Deployment 424242 not found');
    }
  });

  it('the served spec shows both content types of the answer', async () => {
    const account = await server().newAccount();
    const spec = await account.request({ method: 'GET', url: '/api/v1/spec' });
    const operation = spec.body.paths['/api/v1/deployments/{deploymentId}/logs'].get;
    expect(operation.operationId).toBe('getDeploymentLogs');
    expect(Object.keys(operation.responses['200'].content).sort()).toEqual(['application/json', 'application/x-ndjson']);
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
