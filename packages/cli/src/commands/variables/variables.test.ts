import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth variables', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  const deployment = async () => {
    const created = await plinth(['deployments', 'create', '--name', 'shop', '--json'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    return String(JSON.parse(created.stdout).id);
  };

  it('set, list (NAME VALUE, secrets masked), --json, unset; values never printed in clear', async () => {
    const id = await deployment();
    expect(await plinth(['variables', 'list', id], { env: env() })).toMatchObject({ code: 0, stdout: '', stderr: 'No results\n' });

    const set = await plinth(
      [
        'variables',
        'set',
        id,
        'CUBEJS_DB_TYPE=postgres',
        'CUBEJS_DB_HOST=db.internal',
        'CUBEJS_DB_NAME=shop',
        'CUBEJS_DB_USER=reader',
        'CUBEJS_DB_PASS=correct=horse',
      ],
      { env: env() },
    );
    expect(set.code, set.stderr).toBe(0);
    const table = [
      'NAME            VALUE',
      'CUBEJS_DB_HOST  db.internal',
      'CUBEJS_DB_NAME  shop',
      'CUBEJS_DB_PASS  ****',
      'CUBEJS_DB_TYPE  postgres',
      'CUBEJS_DB_USER  reader',
      '',
    ].join('\n');
    expect(set.stdout).toBe(table);
    expect(await plinth(['variables', 'list', id], { env: env() })).toMatchObject({ code: 0, stdout: table, stderr: '' });
    // The value after the first `=` is kept whole.
    const warehouse = await ctx().server.services.deploymentVariables.warehouseConfig(ctx().accountId, Number(id));
    expect(warehouse).toMatchObject({ type: 'postgres', host: 'db.internal', password: 'correct=horse' });

    const secret = await plinth(['variables', 'set', id, 'LABEL=abcdefghij', '--secret', '--json'], { env: env() });
    expect(secret.code, secret.stderr).toBe(0);
    expect(JSON.parse(secret.stdout).items).toContainEqual(expect.objectContaining({ name: 'LABEL', value: '****', secret: true }));
    const json = await plinth(['variables', 'list', id, '--json'], { env: env() });
    expect(JSON.parse(json.stdout).items).toHaveLength(6);
    expect(json.stdout).not.toContain('correct=horse');

    const unset = await plinth(['variables', 'unset', id, 'LABEL', 'CUBEJS_DB_PASS'], { env: env() });
    expect(unset).toMatchObject({ code: 0, stdout: '' });
    const after = await plinth(['variables', 'list', id], { env: env() });
    expect(after.stdout).not.toMatch(/LABEL|CUBEJS_DB_PASS/);
    expect(after.stdout).toContain('CUBEJS_DB_HOST');
  });

  it("a change queues a rebuild of the deploy branch (trigger 'variables')", async () => {
    const id = await deployment();
    expect((await plinth(['variables', 'set', id, 'A=1'], { env: env() })).code).toBe(0);
    const builds = await ctx()
      .server.store.db.selectFrom('model_build')
      .select('trigger')
      .where('deployment_id', '=', Number(id))
      .where('trigger', '=', 'variables')
      .execute();
    expect(builds).toHaveLength(1);
  });

  it('errors: the server names the variable (exit 1); bad usage exits 2; a member may list but not set', async () => {
    const id = await deployment();
    const badType = await plinth(['variables', 'set', id, 'CUBEJS_DB_TYPE=mysql'], { env: env() });
    expect(badType.code).toBe(1);
    expect(badType.stderr).toMatch(/^error: CUBEJS_DB_TYPE must be one of duckdb, postgres, got "mysql" \(HTTP 400\)/);
    const noHost = await plinth(['variables', 'set', id, 'CUBEJS_DB_TYPE=postgres', 'CUBEJS_DB_NAME=x', 'CUBEJS_DB_USER=y'], {
      env: env(),
    });
    expect(noHost.stderr).toMatch(/^error: CUBEJS_DB_HOST must be set when CUBEJS_DB_TYPE is postgres \(HTTP 400\)/);
    const port = await plinth(
      ['variables', 'set', id, 'CUBEJS_DB_PORT=abc', 'CUBEJS_DB_TYPE=postgres', 'CUBEJS_DB_HOST=h', 'CUBEJS_DB_NAME=x', 'CUBEJS_DB_USER=y'],
      {
        env: env(),
      },
    );
    expect(port.stderr).toMatch(/^error: CUBEJS_DB_PORT must be a whole number from 1 to 65535, got "abc" \(HTTP 400\)/);
    const lower = await plinth(['variables', 'set', id, 'lower=x'], { env: env() });
    expect(lower.stderr).toMatch(/^error: Variable name "lower" must be upper-case/);

    expect(await plinth(['variables', 'set', id, 'NOEQUALS'], { env: env() })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('error: KEY=value expects key=value, got "NOEQUALS"'),
    });
    expect((await plinth(['variables', 'set', id], { env: env() })).code).toBe(2);
    expect(await plinth(['variables', 'list', 'abc'], { env: env() })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('error: deployment_id must be a positive whole number, got "abc"'),
    });
    const missing = await plinth(['variables', 'unset', id, 'NOPE'], { env: env() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: Variable NOPE not found \(HTTP 404\)/);
    expect((await plinth(['variables', 'list', '99999'], { env: env() })).stderr).toMatch(
      /^error: Deployment 99999 not found \(HTTP 404\)/,
    );

    const member = { ...env(), PLINTH_API_KEY: ctx().member.apiKey };
    expect((await plinth(['variables', 'set', id, 'A=1'], { env: member })).code).toBe(1);
    expect((await plinth(['variables', 'list', id], { env: member })).code).toBe(0);
  });
});
