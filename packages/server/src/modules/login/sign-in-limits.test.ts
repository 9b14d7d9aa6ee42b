import { expect, it } from 'vitest';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { SIGN_IN_PER_ADDRESS, SIGN_IN_PER_EMAIL } from '../rate-limits/policies.js';

const PASSWORD = 'correct horse battery';

/** A clock the rate limits read, moved by the test instead of sleeping. */
function clockOf(server: TestServer) {
  let now = Date.now();
  server.services.rateLimits.now = () => now;
  return { advance: (ms: number) => (now += ms) };
}

async function startDevice(server: TestServer, account: TestAccount, from = '198.51.100.1') {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/v1/auth/device/code',
    headers: { host: account.host },
    payload: {},
    remoteAddress: from,
  });
  return { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body) };
}

async function signIn(server: TestServer, account: TestAccount, userCode: string, email: string, password: string, from: string) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/login/device',
    remoteAddress: from,
    headers: { host: account.host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ user_code: userCode, email, password, decision: 'approve' }).toString(),
  });
  return { status: response.statusCode, retryAfter: Number(response.headers['retry-after'] ?? 0), text: response.body };
}

async function withPassword(server: TestServer, account: TestAccount) {
  await server.services.login.signIn.setPassword(account.id, account.member.id, PASSWORD);
  return account.member;
}

describeOnStores('login: sign-in rate limits in the store (issue 10, security 5)', (server) => {
  it('guesses at one e-mail from many addresses slow down, yet the right password gets in once the delay is over', async () => {
    const account = await server().newAccount();
    const user = await withPassword(server(), account);
    const { user_code: userCode } = (await startDevice(server(), account)).body;
    const clock = clockOf(server());

    const delays: number[] = [];
    for (let i = 0; i < SIGN_IN_PER_EMAIL.free + 6; i++) {
      const from = `203.0.113.${i + 1}`;
      let attempt = await signIn(server(), account, userCode, user.email, 'wrong password!', from);
      if (attempt.status === 429) {
        delays.push(attempt.retryAfter);
        expect(attempt.text).toContain('Too many failed sign-in attempts for this e-mail');
        clock.advance(attempt.retryAfter * 1000);
        attempt = await signIn(server(), account, userCode, user.email, 'wrong password!', from);
      }
      expect(attempt.status, attempt.text).toBe(401);
    }
    expect(delays.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]!);

    const blocked = await signIn(server(), account, userCode, user.email, PASSWORD, '192.0.2.200');
    expect(blocked.status).toBe(429);
    expect(blocked.retryAfter).toBeGreaterThan(0);
    clock.advance(blocked.retryAfter * 1000);
    const admitted = await signIn(server(), account, userCode, user.email, PASSWORD, '192.0.2.200');
    expect(admitted.status, admitted.text).toBe(200);
    expect(admitted.text).toContain('Device approved');
  });

  it('a successful sign-in clears the delay of its e-mail', async () => {
    const account = await server().newAccount();
    const user = await withPassword(server(), account);
    const clock = clockOf(server());
    const sign = (password: string) => server().services.login.signIn.authenticate(account.id, user.email, password, '192.0.2.7');
    for (let i = 0; i < SIGN_IN_PER_EMAIL.free - 1; i++) await expect(sign('wrong password!')).rejects.toThrow('Wrong e-mail or password');
    await expect(sign(PASSWORD)).resolves.toMatchObject({ id: user.id });
    // Without the reset the next failures would be delayed after one more.
    for (let i = 0; i < SIGN_IN_PER_EMAIL.free; i++) await expect(sign('wrong password!')).rejects.toThrow('Wrong e-mail or password');
    await expect(sign(PASSWORD)).rejects.toThrow('Too many failed sign-in attempts for this e-mail');
    clock.advance(SIGN_IN_PER_EMAIL.capMs);
    await expect(sign(PASSWORD)).resolves.toMatchObject({ id: user.id });
  });

  it('a spray across e-mails from one address is slowed down, other addresses are not', async () => {
    const account = await server().newAccount();
    const user = await withPassword(server(), account);
    const { user_code: userCode } = (await startDevice(server(), account)).body;
    clockOf(server());
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_PER_ADDRESS.free + 1; i++) {
      statuses.push((await signIn(server(), account, userCode, `victim-${i}@example.com`, 'Password123!', '198.51.100.66')).status);
    }
    expect(statuses.slice(0, SIGN_IN_PER_ADDRESS.free).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const last = await signIn(server(), account, userCode, 'victim-x@example.com', 'Password123!', '198.51.100.66');
    expect(last.status).toBe(429);
    expect(last.text).toContain('Too many sign-in attempts from your address');
    expect(last.retryAfter).toBeGreaterThan(0);
    expect((await signIn(server(), account, userCode, user.email, PASSWORD, '198.51.100.67')).status).toBe(200);
  });

  it('starting device logins is limited per client address', async () => {
    const account = await server().newAccount();
    clockOf(server());
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await startDevice(server(), account, '198.51.100.90')).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    const refused = await startDevice(server(), account, '198.51.100.90');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.code).toBe('too_many_requests');
    expect((await startDevice(server(), account, '198.51.100.91')).status).toBe(200);
  });
});
