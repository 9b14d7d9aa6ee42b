import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

const claimsOf = (token: string): Record<string, any> => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

describeCli('plinth environments', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  const run = async (args: string[]) => {
    const result = await plinth(args, { env: env() });
    expect(result.code, result.stderr).toBe(0);
    return result;
  };

  it('list shows production and enabled staging with their API URLs; --type staging only staging; tokens are minted and listed', async () => {
    const id = String(JSON.parse((await run(['deployments', 'create', '--name', 'd', '--json'])).stdout).id);
    await run(['api', 'POST', `/build/api/v1/deployments/${id}/branches`, '-d', '{"name": "staging"}']);
    await run(['api', 'POST', `/build/api/v1/deployments/${id}/branches/staging/enable`, '-d', '{}']);

    const table = (await run(['environments', 'list', id])).stdout.trim().split('\n');
    expect(table[0]).toMatch(/^ID\s+TYPE\s+BRANCH\s+API URL\s+SQL URL\s+SQL USER\s+SQL PASSWORD$/);
    expect(table[1]).toMatch(
      new RegExp(
        `^\\d+\\s+production\\s+main\\s+\\S+/d/${id}/cubejs-api/v1\\s+postgresql://env_\\d+@\\S+:\\d+/deployment-${id}\\s+env_\\d+\\s+[A-Za-z0-9]{32}$`,
      ),
    );
    expect(table[2]).toMatch(
      new RegExp(`^\\d+\\s+staging\\s+staging\\s+\\S+/d/${id}/dev-mode/staging/cubejs-api/v1\\s+postgresql://\\S+\\s+env_\\d+\\s+\\S+$`),
    );
    const staging = JSON.parse((await run(['environments', 'list', id, '--type', 'staging', '--json'])).stdout);
    expect(staging.data.map((e: { branch: string }) => e.branch)).toEqual(['staging']);
    const environmentId = staging.data[0].id as string;

    const empty = await run(['environments', 'tokens', id, environmentId]);
    expect(empty).toMatchObject({ stdout: '', stderr: 'No results\n' });
    const token = (
      await run(['environments', 'create-token', id, environmentId, '--security-context', '{"tenant": "acme"}', '--expires-in', '60'])
    ).stdout;
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(claimsOf(token.trim())).toMatchObject({
      deploymentId: Number(id),
      environment: environmentId,
      securityContext: { tenant: 'acme' },
    });
    const meta = JSON.parse((await run(['environments', 'create-meta-sync-token', id, environmentId, '--json'])).stdout);
    expect(meta.data.security_context).toEqual({});
    const listed = (await run(['environments', 'tokens', id, environmentId])).stdout.trim().split('\n');
    expect(listed[0]).toMatch(/^CREATED\s+EXPIRES\s+SECURITY CONTEXT\s+TOKEN$/);
    expect(listed).toHaveLength(3);
    expect(listed[1]).toContain(token.trim());
    const paged = await run(['environments', 'tokens', id, environmentId, '--limit', '1']);
    expect(paged.stderr).toBe('More results: add --offset 1\n');
  });

  it("rotate-sql-password prints the environment's new SQL password, which the list shows from then on", async () => {
    const id = String(JSON.parse((await run(['deployments', 'create', '--name', 'd', '--json'])).stdout).id);
    const before = JSON.parse((await run(['environments', 'list', id, '--json'])).stdout).data[0];
    const oldPassword = before.api_credentials.find((c: { type: string }) => c.type === 'sql').password as string;
    const printed = (await run(['environments', 'rotate-sql-password', id, before.id])).stdout;
    expect(printed).toMatch(/^[A-Za-z0-9]{32}\n$/);
    expect(printed.trim()).not.toBe(oldPassword);
    const after = JSON.parse((await run(['environments', 'list', id, '--json'])).stdout).data[0];
    expect(after.api_credentials.find((c: { type: string }) => c.type === 'sql')).toMatchObject({
      user: `env_${before.id}`,
      password: printed.trim(),
    });
    const missing = await plinth(['environments', 'rotate-sql-password', id, '999999'], { env: env() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/HTTP 404/);
  });

  it.each([
    [['environments', 'rotate-sql-password', '1', 'x'], /environment_id must be a positive whole number/],
    [['environments', 'list', '1', '--type', 'qa'], /--type must be one of production, staging, development/],
    [['environments', 'list', '1', '--offset', '-1'], /--offset must be 0 or more/],
    [['environments', 'create-token', '1', '2', '--security-context', '[]'], /--security-context must be a JSON object/],
    [['environments', 'create-token', '1', 'x'], /environment_id must be a positive whole number/],
  ])('%j is refused before anything is sent (exit 2)', async (args, message) => {
    const result = await plinth(args, { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("the server's refusals: an unknown environment is 404, a lifetime past an hour is 400", async () => {
    const id = String(JSON.parse((await run(['deployments', 'create', '--name', 'd', '--json'])).stdout).id);
    const missing = await plinth(['environments', 'create-token', id, '999999'], { env: env() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/HTTP 404/);
    const production = JSON.parse((await run(['environments', 'list', id, '--json'])).stdout).data[0].id;
    const long = await plinth(['environments', 'create-token', id, production, '--expires-in', '3601'], { env: env() });
    expect(long.code).toBe(1);
    expect(long.stderr).toMatch(/expires_in/);
  });
});
