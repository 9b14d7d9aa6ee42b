import { describe, expect, it } from 'vitest';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { mint } from '../data-api/test-fixtures.js';
import { overlay } from './context.js';

const BAD_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.c2lnbmF0dXJlc2lnbmF0dXJl';
const URL = '/api/v1/embed/context';

async function embedToken(account: TestAccount, body: Record<string, unknown>): Promise<string> {
  const generated = await account.request({ method: 'POST', url: '/api/v1/embed/generate-session', as: account.admin, body });
  expect(generated.status, generated.text).toBe(200);
  const exchanged = await account.request({
    method: 'POST',
    url: '/api/v1/embed/session/token',
    body: { sessionId: generated.body.sessionId },
  });
  expect(exchanged.status, exchanged.text).toBe(200);
  return exchanged.body.token as string;
}

describe('overlay', () => {
  it.each([
    [
      'a session property wins',
      { primaryColor: '#111111', font: 'serif' },
      { primaryColor: '#222222' },
      { primaryColor: '#222222', font: 'serif' },
    ],
    ['no overrides keep the base', { primaryColor: null }, null, { primaryColor: null }],
    [
      'a nested part is merged, not replaced',
      { chat: { inputColor: '#111111' }, font: null },
      { chat: {} },
      { chat: { inputColor: '#111111' }, font: null },
    ],
    [
      'a part the base lacks is added',
      { analyticsChat: null },
      { analyticsChat: { backgroundColor: '#333333' } },
      { analyticsChat: { backgroundColor: '#333333' } },
    ],
  ])('%s', (_name, base, overrides, expected) => {
    expect(overlay(base, overrides)).toEqual(expected);
  });
});

describeOnStores('getEmbedContext', (server) => {
  it("answers the token's user, settings and the account's themes with the session's overrides", async () => {
    const account = await server().newAccount();
    const deploymentId = (await server().services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
    const theme = await account.request({
      method: 'PUT',
      url: '/api/v1/users/embed-theme',
      as: account.admin,
      body: { primaryColor: '#123456', font: 'Georgia, serif' },
    });
    expect(theme.status, theme.text).toBe(200);
    const app = await account.request({
      method: 'PUT',
      url: '/api/v1/app-theme',
      as: account.admin,
      body: { light: { backgroundColor: '#fafafa' } },
    });
    expect(app.status, app.text).toBe(200);

    const token = await embedToken(account, {
      deploymentId,
      externalId: 'ann',
      email: 'ann@example.com',
      userProfile: { displayName: 'Ann Lee', picture: 'https://example.com/ann.png' },
      settings: { showDashboardChat: false },
      embedTheme: { primaryColor: '#abcdef' },
    });
    const response = await account.request({ method: 'GET', url: URL, as: token });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      user: {
        type: 'external',
        externalId: 'ann',
        email: 'ann@example.com',
        displayName: 'Ann Lee',
        picture: 'https://example.com/ann.png',
      },
      creatorMode: false,
      showDashboardChat: false,
      appTheme: { light: { backgroundColor: '#fafafa' } },
      embedTheme: { primaryColor: '#abcdef', font: 'Georgia, serif', chat: null },
    });

    // Without settings the account's setting applies (shown by default); without a profile, nulls.
    const plain = await account.request({ method: 'GET', url: URL, as: await embedToken(account, { deploymentId, externalId: 'bob' }) });
    expect(plain.body).toMatchObject({
      user: { externalId: 'bob', email: null, displayName: null, picture: null },
      showDashboardChat: true,
      embedTheme: { primaryColor: '#123456' },
    });
  });

  it('getEmbedContext refuses every credential but an embed token of the account', async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    const deploymentId = (await server().services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
    const call = (as: string | TestAccount['admin'] | null) => account.request({ method: 'GET', url: URL, as });

    const missing = await call(null);
    expect([missing.status, missing.body.error]).toEqual([401, expect.stringMatching(/Missing Authorization/)]);
    const access = await call(`Bearer ${await account.accessToken(account.admin)}`);
    expect([access.status, access.body.error]).toEqual([401, expect.stringMatching(/not accepted here/)]);
    expect((await call(account.admin)).status, 'an API key').toBe(401);
    expect((await call(BAD_JWT)).status, 'a bad token').toBe(403);
    expect((await call(await mint(account, deploymentId))).status, 'a data API token').toBe(403);
    const otherDeployment = (await server().services.deployments.create(other.id, { name: 'o' }, 'http://localhost')).id;
    const foreign = await embedToken(other, { deploymentId: otherDeployment, externalId: 'ann' });
    expect((await call(foreign)).status, "another account's embed token").toBe(403);
  });
});
