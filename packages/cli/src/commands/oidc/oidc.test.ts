import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStandInIssuer, type StandInIssuer } from '@plinth/server/test-support';
import { cliRunner, describeCli } from '../../test-support/harness.js';

let issuer: StandInIssuer;
beforeAll(async () => {
  issuer = await startStandInIssuer();
});
afterAll(async () => {
  await issuer.close();
});

describeCli('plinth oidc', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = (apiKey: string | undefined = ctx().admin.apiKey) => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey });

  it('create, list, get, update and delete a config', async () => {
    const created = await plinth(
      [
        'oidc',
        'create',
        '--name',
        'okta',
        '--issuer',
        'https://acme.okta.com',
        '--audience',
        'plinth',
        '--algorithm',
        'RS256',
        '--algorithm',
        'ES256',
        '--json',
      ],
      { env: env() },
    );
    expect(created.code, created.stderr).toBe(0);
    const config = JSON.parse(created.stdout);
    expect(config).toMatchObject({
      name: 'okta',
      audiences: ['plinth'],
      algorithms: ['RS256', 'ES256'],
      userClaim: 'email',
      enabled: true,
    });
    const listed = await plinth(['oidc', 'list'], { env: env() });
    expect(listed.stdout).toMatch(new RegExp(`${config.id}\\s+okta\\s+https://acme.okta.com\\s+email\\s+true`));
    const updated = await plinth(['oidc', 'update', String(config.id), '--disable', '--user-claim', 'sub', '--json'], { env: env() });
    expect(JSON.parse(updated.stdout)).toMatchObject({ enabled: false, userClaim: 'sub' });
    const got = await plinth(['oidc', 'get', String(config.id), '--json'], { env: env(ctx().member.apiKey) });
    expect(JSON.parse(got.stdout).enabled).toBe(false);
    const deleted = await plinth(['oidc', 'delete', String(config.id)], { env: env(), stderrIsTTY: true });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr + deleted.stdout).toMatch(`Deleted OIDC token config ${config.id}`);
  });

  it('exchange prints the access token of the user the ID token names, which then works as a credential', async () => {
    const created = await plinth(['oidc', 'create', '--name', 'local', '--issuer', issuer.issuer, '--audience', issuer.audience], {
      env: env(),
    });
    expect(created.code, created.stderr).toBe(0);
    const idToken = await issuer.sign({ email: ctx().member.email });
    const exchanged = await plinth(['oidc', 'exchange', '--subject-token-stdin'], { env: { PLINTH_API_URL: ctx().url }, stdin: idToken });
    expect(exchanged.code, exchanged.stderr).toBe(0);
    const token = exchanged.stdout.trim();
    expect(token).toMatch(/^pla_/);
    const whoami = await plinth(['whoami', '--json'], { env: { PLINTH_API_URL: ctx().url, PLINTH_API_KEY: token } });
    expect(whoami.stdout).toContain(ctx().member.email);

    const expired = await plinth(
      ['oidc', 'exchange', '--subject-token', await issuer.sign({ email: ctx().member.email }, { expiresIn: -100 })],
      {
        env: { PLINTH_API_URL: ctx().url },
      },
    );
    expect(expired.code).toBe(1);
    expect(expired.stderr).toMatch(/The subject token has expired/);
  });

  it.each([
    [['oidc', 'create', '--name', 'x'], /--issuer, --audience/],
    [['oidc', 'update', '1', '--enable', '--disable'], /do not go together/],
    [['oidc', 'exchange'], /--subject-token <jwt> or --subject-token-stdin/],
    [['oidc', 'create', '--name', 'x', '--issuer', 'https://a.example', '--audience', 'a', '--user-claim', 'name'], /name/],
  ])('usage errors exit 2: %j', async (argv, message) => {
    const result = await plinth(argv, { env: env() });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
