import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { ApiError } from '../../http/errors.js';
import { describeOnStores } from '../../test-support/server.js';
import { GithubClient, NOT_CONFIGURED } from './client.js';
import { startGithubStandIn, type GithubStandIn } from './stand-in.js';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('GitHub client against the stand-in, api.github.com layout (no path prefix)', () => {
  let standIn: GithubStandIn;
  const repos = Array.from({ length: 5 }, (_, i) => ({ owner: 'acme', name: `r${i}`, dir: '/nonexistent' }));
  const config = (overrides: Record<string, string> = {}) => loadConfig({ ...standIn.env(), ...overrides }).github;

  beforeAll(async () => {
    standIn = await startGithubStandIn({ maxPerPage: 2, installations: [{ id: 7, account: 'acme', repositories: repos }] });
  });
  afterAll(() => standIn.close());

  it('signs an RS256 App JWT GitHub accepts, gets an installation token once, and follows Link pages', async () => {
    const client = new GithubClient(config());
    expect(client.configured).toBe(true);
    expect((await client.getApp()).slug).toBe('plinth-test');
    expect((await client.listRepositories(7)).map((r) => r.full_name)).toEqual(repos.map((r) => `acme/${r.name}`));
    // Three pages of two, one token for all of them and for the next call.
    expect(standIn.requests.filter((r) => r.path === '/installation/repositories')).toHaveLength(3);
    await client.listRepositories(7);
    expect(standIn.requests.filter((r) => r.path === '/app/installations/7/access_tokens')).toHaveLength(1);
  });

  it('a key GitHub does not know is a 400 naming the settings; an unknown installation a 400 naming it', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const wrong = new GithubClient(config({ PLINTH_GITHUB_APP_PRIVATE_KEY: other }));
    const refused = await failure(wrong.listInstallations());
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/^GitHub refused the App's credentials: check PLINTH_GITHUB_APP_ID and the private key \(GitHub: 401 /);
    const missing = await failure(new GithubClient(config()).installationToken(99));
    expect(missing).toMatchObject({ status: 400, message: expect.stringMatching(/^Installation 99 not found on GitHub/) });
  });

  it('GitHub out of reach is a 502; not configured is a 400 naming the variables', async () => {
    const down = await failure(new GithubClient(config({ PLINTH_GITHUB_API_URL: 'http://127.0.0.1:9' })).getApp());
    expect(down.status).toBe(502);
    expect(down.message).toMatch(/^GitHub API at http:\/\/127\.0\.0\.1:9 cannot be reached: /);
    const unconfigured = new GithubClient(loadConfig({}).github);
    expect(unconfigured.configured).toBe(false);
    expect(await failure(unconfigured.listInstallations())).toMatchObject({ status: 400, message: NOT_CONFIGURED });
  });
});

describe('GitHub settings', () => {
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

  it('defaults to api.github.com; takes an Enterprise URL, the key as text (\\n escapes too) or as a file', () => {
    expect(loadConfig({}).github).toEqual({
      apiUrl: 'https://api.github.com',
      appId: undefined,
      privateKey: undefined,
      webhookSecret: undefined,
    });
    const escaped = loadConfig({
      PLINTH_GITHUB_API_URL: 'https://ghe.example.com/api/v3/',
      PLINTH_GITHUB_APP_ID: '12',
      PLINTH_GITHUB_APP_PRIVATE_KEY: key.replace(/\n/g, '\\n'),
      PLINTH_GITHUB_WEBHOOK_SECRET: 's',
    }).github;
    expect(escaped).toEqual({ apiUrl: 'https://ghe.example.com/api/v3', appId: '12', privateKey: key, webhookSecret: 's' });
    const file = join(tmpdir(), `plinth-gh-key-${process.pid}.pem`);
    writeFileSync(file, key);
    expect(loadConfig({ PLINTH_GITHUB_APP_ID: '12', PLINTH_GITHUB_APP_PRIVATE_KEY_FILE: file }).github.privateKey).toBe(key);
  });

  it.each([
    [{ PLINTH_GITHUB_API_URL: 'ftp://x' }, 'Invalid setting PLINTH_GITHUB_API_URL: "ftp://x" is not an http:// or https:// URL'],
    [{ PLINTH_GITHUB_APP_ID: '12' }, 'Invalid setting PLINTH_GITHUB_APP_PRIVATE_KEY: must be set'],
    [
      { PLINTH_GITHUB_APP_ID: 'twelve', PLINTH_GITHUB_APP_PRIVATE_KEY: 'x' },
      'Invalid setting PLINTH_GITHUB_APP_ID: "twelve" is not an App ID',
    ],
    [
      { PLINTH_GITHUB_APP_ID: '12', PLINTH_GITHUB_APP_PRIVATE_KEY: 'not a key' },
      'Invalid setting PLINTH_GITHUB_APP_PRIVATE_KEY: is not a PEM private key',
    ],
    [
      { PLINTH_GITHUB_APP_ID: '12', PLINTH_GITHUB_APP_PRIVATE_KEY_FILE: '/nonexistent.pem' },
      'Invalid setting PLINTH_GITHUB_APP_PRIVATE_KEY_FILE: cannot read',
    ],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describeOnStores('GitHub on a server without an App', (server) => {
  it('status says it is not configured; listings and installation connects are a 400 naming the variables', async () => {
    const account = await server().newAccount();
    const status = await account.request({ method: 'GET', url: '/api/v1/github', as: account.admin });
    expect(status.body).toMatchObject({
      configured: false,
      apiUrl: 'https://api.github.com',
      webhookConfigured: false,
      app: null,
      error: null,
    });
    const listed = await account.request({ method: 'GET', url: '/api/v1/github/installations', as: account.admin });
    expect(listed).toMatchObject({ status: 400, body: { error: NOT_CONFIGURED } });
    const created = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } });
    const connect = await account.request({
      method: 'POST',
      url: `/api/v1/deployments/${created.body.id}/github`,
      as: account.admin,
      body: { repository: 'acme/shop', installationId: 1, branch: 'main' },
    });
    expect(connect).toMatchObject({ status: 400, body: { error: NOT_CONFIGURED } });
    const webhook = await account.request({
      method: 'POST',
      url: '/api/v1/github/webhook',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(webhook.status).toBe(401);
    expect(webhook.body.error).toMatch(/PLINTH_GITHUB_WEBHOOK_SECRET is not set/);
  });
});
