import { expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';

const event = { command: 'deployments', success: true, version: '0.1.0', platform: 'linux-x64 node-20.19.0', machineId: 'a'.repeat(64) };

describeOnStores('telemetry', (server) => {
  it('5: stores the anonymous event without credentials', async () => {
    const account = await server().newAccount();
    const response = await account.request({ method: 'POST', url: '/api/v1/telemetry', body: event });
    expect(response.status, response.text).toBe(202);
    expect(await server().services.telemetry.summary(account.id)).toEqual([{ command: 'deployments', success: true, count: 1 }]);
  });

  it.each([
    ['an unknown field', { ...event, email: 'someone@example.com' }],
    ['an unhashed machine id', { ...event, machineId: 'my-laptop' }],
    ['a command with spaces', { ...event, command: 'rm -rf' }],
    ['a missing outcome', { command: 'x', version: '1', platform: 'linux', machineId: event.machineId }],
  ])('rejects %s with 400', async (_label, body) => {
    const account = await server().newAccount();
    const response = await account.request({ method: 'POST', url: '/api/v1/telemetry', body });
    expect(response.status).toBe(400);
  });

  it('caps the body size and the rate per source', async () => {
    const account = await server().newAccount();
    const big = await account.request({ method: 'POST', url: '/api/v1/telemetry', body: { ...event, platform: 'x'.repeat(3000) } });
    expect(big.status).toBe(413);
    const machineId = 'b'.repeat(64);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      statuses.push((await account.request({ method: 'POST', url: '/api/v1/telemetry', body: { ...event, machineId } })).status);
    }
    expect(statuses.filter((s) => s === 202)).toHaveLength(60);
    expect(statuses.at(-1)).toBe(429);
  });

  it('limits events per account and client address, whatever machine id they carry (issue 10, security 5)', async () => {
    const account = await server().newAccount();
    const send = (i: number, from: string) =>
      server().app.inject({
        method: 'POST',
        url: '/api/v1/telemetry',
        headers: { host: account.host },
        remoteAddress: from,
        payload: { ...event, machineId: i.toString(16).padStart(64, '0') },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await send(i, '198.51.100.10')).statusCode);
    expect(statuses.filter((s) => s === 202)).toHaveLength(60);
    const refused = await send(99, '198.51.100.10');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send(100, '198.51.100.11')).statusCode).toBe(202);
    const other = await server().newAccount();
    expect((await other.request({ method: 'POST', url: '/api/v1/telemetry', body: event })).status).toBe(202);
  });
});
