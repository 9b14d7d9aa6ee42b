import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth deployments, output and errors', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });

  it('4.8: an empty list prints "No results" on stderr and nothing on stdout', async () => {
    const result = await plinth(['deployments', 'list'], { env: env() });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: 'No results\n' });
  });

  it('4.8: lists print as an aligned table; --json prints the raw response', async () => {
    const a = await plinth(['deployments', 'create', '--name', 'analytics', '--region', 'local'], { env: env() });
    expect(a.code, a.stderr).toBe(0);
    const b = await plinth(['deployments', 'create', '-d', '{"name": "marketing"}', '--json'], { env: env() });
    const created = JSON.parse(b.stdout);
    expect(created).toMatchObject({ name: 'marketing', region: null });

    const json = await plinth(['deployments', 'list', '--json'], { env: env() });
    const raw = await (
      await fetch(`${ctx().url}/api/v1/deployments`, { headers: { authorization: `Api-Key ${ctx().admin.apiKey}` } })
    ).text();
    expect(json.stdout).toBe(`${raw}\n`);

    const [first, second] = JSON.parse(raw).items;
    const url = (d: { deploymentUrl: string }) => d.deploymentUrl;
    const w = url(first).length;
    const table = await plinth(['deployments', 'list'], { env: env() });
    expect(table.stdout).toBe(
      [
        `ID  NAME       REGION  ${'URL'.padEnd(w)}  STEP     CREATED`,
        `${String(first.id).padEnd(2)}  analytics  local   ${url(first)}  created  ${first.createdAt}`,
        `${String(second.id).padEnd(2)}  marketing          ${url(second).padEnd(w)}  created  ${second.createdAt}`,
        '',
      ].join('\n'),
    );
    expect(table.stderr).toBe('');

    const get = await plinth(['deployments', 'get', String(first.id)], { env: env() });
    const rows: Array<[string, unknown]> = [
      ['id', first.id],
      ['name', 'analytics'],
      ['region', 'local'],
      ['deploymentUrl', url(first)],
      ['creationStep', 'created'],
      ['createdAt', first.createdAt],
    ];
    expect(get.stdout).toBe(rows.map(([k, v]) => `${k.padEnd(13)}  ${v}\n`).join(''));
  });

  it('paginates with --first and says how to continue', async () => {
    for (const name of ['first', 'second']) expect((await plinth(['deployments', 'create', '--name', name], { env: env() })).code).toBe(0);
    const result = await plinth(['deployments', 'list', '--first', '1'], { env: env() });
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
    expect(result.stderr).toMatch(/^More results: add --after \S+\n$/);
  });

  it('errors: one line on stderr, exit 1 for 4xx; usage errors exit 2 and print the usage', async () => {
    const missing = await plinth(['deployments', 'get', '99999'], { env: env() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: Deployment 99999 not found \(HTTP 404\) \[request [0-9a-f-]{36}\]\n$/);

    const badId = await plinth(['deployments', 'get', 'abc'], { env: env() });
    expect(badId).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('error: deployment_id must be a positive whole number, got "abc"\n\nUsage: plinth '),
    });

    const member = await plinth(['deployments', 'create', '--name', 'x'], { env: { ...env(), PLINTH_API_KEY: ctx().member.apiKey } });
    expect(member.code).toBe(1);
    expect(member.stderr).toMatch(/^error: This operation requires the admin role \(HTTP 403\)/);

    const invalid = await plinth(['deployments', 'create', '-d', '{not json'], { env: env() });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/^error: -d is not valid JSON: /);

    const unknown = await plinth(['deployments', 'frobnicate'], { env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown command 'frobnicate'");
    expect(unknown.stderr).toContain('Usage: plinth deployments [options] [command]');

    const noArg = await plinth(['deployments', 'get'], { env: env() });
    expect(noArg.code).toBe(2);
    expect(noArg.stderr).toContain("error: missing required argument 'deployment_id'");
    expect(noArg.stderr).toContain('Usage: plinth deployments get [options] <deployment_id>');

    const badKey = await plinth(['deployments', 'list'], { env: { ...env(), PLINTH_API_KEY: 'sk-notarealkeynotarealkey12' } });
    expect(badKey.code).toBe(4);
    expect(badKey.stderr).toMatch(
      /^error: Unknown API key \(HTTP 401\) \[request [0-9a-f-]{36}\]\nhint: Run `plinth login` to sign in, or set PLINTH_API_KEY\.\n$/,
    );

    const down = await plinth(['deployments', 'list'], { env: { ...env(), PLINTH_API_URL: 'http://127.0.0.1:65530' } });
    expect(down.code).toBe(5);
    expect(down.stderr).toMatch(/^error: Cannot reach http:\/\/127\.0\.0\.1:65530: ECONNREFUSED\n/);
  });

  it('4.8 rule 1: no arguments prints the version above the help; --help shows options', async () => {
    const bare = await plinth([]);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toMatch(/^plinth \d+\.\d+\.\d+\n\nUsage: plinth \[options\] \[command\]\n/);
    expect(bare.stdout).toContain('deployments');
    const version = await plinth(['--version']);
    expect(version.stdout).toMatch(/^plinth \d+\.\d+\.\d+\n$/);
    const help = await plinth(['deployments', 'create', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--name <name>');
    expect(help.stdout).toContain('-d, --data <json>');
  });
});
