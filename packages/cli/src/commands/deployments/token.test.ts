import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

/** A JWT's claims, unverified: the server's tests verify; these check what the CLI sent. */
const decodeJwt = (token: string): Record<string, any> => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

describeCli('plinth deployments token', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  const deployment = async () => {
    const created = await plinth(['deployments', 'create', '--name', 'd', '--json'], { env: env() });
    return String(JSON.parse(created.stdout).id);
  };

  it('prints the token alone; --security-context and --expires-in go into it; --json is the raw response', async () => {
    const id = await deployment();
    const plain = await plinth(['deployments', 'token', id], { env: env() });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(decodeJwt(plain.stdout.trim())).toMatchObject({ deploymentId: Number(id), securityContext: {} });

    const shaped = await plinth(['deployments', 'token', id, '--security-context', '{"tenant": "acme"}', '--expires-in', '60'], {
      env: env(),
    });
    const claims = decodeJwt(shaped.stdout.trim());
    expect(claims.securityContext).toEqual({ tenant: 'acme' });
    expect(claims.exp - claims.iat).toBe(60);

    const json = await plinth(['deployments', 'token', id, '--json'], { env: env() });
    expect(Object.keys(JSON.parse(json.stdout))).toEqual(['cubeApiToken']);
  });

  it.each([
    [['--security-context', '[1]'], /--security-context must be a JSON object/],
    [['--security-context', '{'], /--security-context is not valid JSON/],
    [['--expires-in', 'soon'], /--expires-in must be a positive whole number/],
  ])('refuses %j before sending anything (exit 2)', async (flags, message) => {
    const result = await plinth(['deployments', 'token', '1', ...flags], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("the server's refusals: a lifetime past 30 days is 400, a member is refused, a missing deployment is 404", async () => {
    const id = await deployment();
    const long = await plinth(['deployments', 'token', id, '--expires-in', String(31 * 24 * 3600)], { env: env() });
    expect(long.code).toBe(1);
    expect(long.stderr).toMatch(/expiresIn/);
    const member = await plinth(['deployments', 'token', id], { env: { ...env(), PLINTH_API_KEY: ctx().member.apiKey } });
    expect(member.code).not.toBe(0);
    expect(member.stderr).toMatch(/admin role/);
    const missing = await plinth(['deployments', 'token', '999999'], { env: env() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/HTTP 404/);
  });
});
