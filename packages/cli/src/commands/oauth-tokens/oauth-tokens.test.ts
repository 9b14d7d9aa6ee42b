import { expect, it } from 'vitest';
import { sharedStandInProvider, CLIENT_ID, CLIENT_SECRET } from '@plinth/server/test-support';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth oauth-tokens', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().member.apiKey });
  /** Through the service: the integration's schema refuses the stand-in's loopback address. */
  const integration = async () => {
    const provider = await sharedStandInProvider();
    const created = await ctx().server.services.oauthIntegrations.create(ctx().accountId, {
      name: 'stand-in',
      type: 'generic',
      authUrl: `${provider.url}/authorize`,
      tokenUrl: provider.tokenUrl,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: 'https://plinth.example.com/oauth/callback',
      config: { revocationUrl: provider.revocationUrl },
    });
    return { provider, id: String(created.id) };
  };

  it('create, list, refresh and revoke; the tokens are never printed', async () => {
    const { provider, id } = await integration();
    const created = await plinth(['oauth-tokens', 'create', '--integration', id, '--code', provider.issueCode(), '--json'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    const token = JSON.parse(created.stdout);
    expect(token).toMatchObject({ integrationId: Number(id), scopes: ['read', 'write'], revoked: false });
    expect(created.stdout).not.toMatch(/at-|rt-/);

    const listed = await plinth(['oauth-tokens', 'list'], { env: env() });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${token.id}\\s+${id}\\s+read, ?write`, 'm'));

    const refreshed = await plinth(['oauth-tokens', 'refresh', String(token.id), '--json'], { env: env() });
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(JSON.parse(refreshed.stdout).refreshedAt).toEqual(expect.any(String));

    const revoked = await plinth(['oauth-tokens', 'revoke', String(token.id)], { env: env(), stderrIsTTY: true });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stderr + revoked.stdout).toMatch(`OAuth token ${token.id} (revoked)`);
    const after = JSON.parse((await plinth(['oauth-tokens', 'list', '--json'], { env: env() })).stdout);
    expect(after.items[0]).toMatchObject({ id: token.id, revoked: true });
  });

  it('a code the provider refuses is reported with its error', async () => {
    const { id } = await integration();
    const refused = await plinth(['oauth-tokens', 'create', '--integration', id, '--code', 'forged'], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/The provider refused the authorization_code grant \(invalid_grant/);
  });

  it.each([
    [['oauth-tokens', 'create', '--code', 'c'], /--integration/],
    [['oauth-tokens', 'create', '--integration', 'x', '--code', 'c'], /--integration/],
    [['oauth-tokens', 'refresh', 'abc'], /id/],
  ])('usage errors exit 2: %j', async (argv, message) => {
    const result = await plinth(argv, { env: env() });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
