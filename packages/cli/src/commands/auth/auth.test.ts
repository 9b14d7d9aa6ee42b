import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth login, contexts and credentials', (ctx, home) => {
  const plinth = cliRunner(home);
  const configFile = () => join(home(), 'plinth', 'config.toml');
  /** Context "local": the admin's API key. */
  const loginWithKey = async () => {
    const login = await plinth(['login', '--api-key', ctx().admin.apiKey, '--url', ctx().url, '--name', 'local']);
    expect(login.code, login.stderr).toBe(0);
    return login;
  };
  /**
   * The member's login by the device flow, approved (or denied) on the verification page as the
   * code appears. The CLI's pause before each poll waits for that answer instead of the clock;
   * every pause it asks for is the server's interval.
   */
  const loginByDevice = async (decision: 'approve' | 'deny' = 'approve', name = 'device') => {
    ctx().server.services.login.device.settings.intervalSeconds = 3;
    await ctx().server.services.login.signIn.setPassword(ctx().accountId, ctx().member.id, 'member password 1');
    let answered: Promise<unknown> | undefined;
    const pauses: number[] = [];
    const login = await plinth(['login', '--url', ctx().url, '--name', name], {
      onStderr: (text) => {
        const code = /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(text)?.[1];
        if (!code || answered) return;
        answered = fetch(`${ctx().url}/login/device`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ user_code: code, email: ctx().member.email, password: 'member password 1', decision }),
        }).then((page) => page.text());
      },
      wait: async (ms) => {
        pauses.push(ms);
        await answered;
      },
    });
    expect(pauses).toEqual([3_000]);
    return login;
  };
  const loggedInByDevice = async () => {
    const login = await loginByDevice();
    expect(login.code, login.stderr).toBe(0);
  };

  it('5 rule 4: login --api-key saves a context (mode 0600) and whoami shows it', async () => {
    const login = await plinth(['login', '--api-key', ctx().admin.apiKey, '--url', ctx().url, '--name', 'local']);
    expect(login.stderr).toBe(`Logged in to ${ctx().url} as admin@clitest.example.com (key "admin key"); saved as context "local".\n`);
    expect(login.code).toBe(0);
    expect((await stat(configFile())).mode & 0o777).toBe(0o600);
    const toml = await readFile(configFile(), 'utf8');
    expect(toml).toContain('current_context = "local"');
    expect(toml).toContain(`api_key = "${ctx().admin.apiKey}"`);

    const who = await plinth(['whoami']);
    expect(who.code).toBe(0);
    expect(who.stdout).toBe(
      [
        `URL          ${ctx().url}`,
        `Account      clitest (${ctx().accountId})`,
        `User         admin@clitest.example.com (${ctx().admin.id})`,
        `Credential   API key "admin key" (${ctx().admin.apiKey.slice(0, 8)}…)`,
        'Role         admin',
        'Deployments  all',
        'Source       context local',
        '',
      ].join('\n'),
    );
  });

  it('a refused key is an auth error with exit code 4 and saves nothing new', async () => {
    await loginWithKey();
    const result = await plinth(['login', '--api-key', 'sk-wrongwrongwrongwrongwrong1', '--url', ctx().url, '--name', 'bad']);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('error: The server refused this key: Unknown API key\nhint: Check the key and the URL.\n');
    expect(await readFile(configFile(), 'utf8')).not.toContain('[contexts.bad]');
  });

  it('5 rule 3: login by the device flow, approved on the verification page', async () => {
    const result = await loginByDevice();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^First copy your one-time code: [A-Z]{4}-[A-Z]{4}\nThen open http:\/\/127\.0\.0\.1:\d+\/login\/device\?user_code=[A-Z]{4}-[A-Z]{4} in a browser, sign in and approve it\.\n/,
    );
    expect(result.stderr).toContain(`Logged in to ${ctx().url} as member@clitest.example.com; saved as context "device".`);
    const who = await plinth(['whoami']);
    expect(who.stdout).toContain('Credential   access token (device login)');
    expect(who.stdout).toContain('Source       context device');
  });

  it('a denied device login fails with exit code 4', async () => {
    const result = await loginByDevice('deny', 'denied');
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('error: The login request was denied in the browser\n');
  });

  it('5 rule 3: an expired access token is refreshed on the 401 and the new pair is saved', async () => {
    await loggedInByDevice();
    const before = await readFile(configFile(), 'utf8');
    await ctx()
      .server.store.db.updateTable('access_token')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('account_id', '=', ctx().accountId)
      .execute();
    const who = await plinth(['whoami', '--context', 'device']);
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toContain('User         member@clitest.example.com');
    const after = await readFile(configFile(), 'utf8');
    const token = (text: string) => /\[contexts\.device\][^[]*access_token = "([^"]+)"/.exec(text)?.[1];
    expect(token(after)).toMatch(/^pla_/);
    expect(token(after)).not.toBe(token(before));
  });

  it('context list, use and show', async () => {
    await loginWithKey();
    await loggedInByDevice();
    const list = await plinth(['context', 'list']);
    const url = ctx().url;
    const keyUser = 'admin@clitest.example.com (key "admin key")';
    expect(list.stdout).toBe(
      [
        `   NAME    ${'URL'.padEnd(url.length)}  ${'USER'.padEnd(keyUser.length)}  AUTH`,
        `   local   ${url}  ${keyUser}  api-key`,
        `*  device  ${url}  ${'member@clitest.example.com'.padEnd(keyUser.length)}  device-login`,
        '',
      ].join('\n'),
    );
    const use = await plinth(['context', 'use', 'local']);
    expect(use.stderr).toBe('Switched to context "local".\n');
    const show = await plinth(['context', 'show', '--json']);
    expect(JSON.parse(show.stdout)).toMatchObject({
      name: 'local',
      current: true,
      auth: 'api-key',
      credential: `${ctx().admin.apiKey.slice(0, 6)}…`,
    });
    const missing = await plinth(['context', 'use', 'nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'error: No context named "nope"\nhint: Known contexts: local, device\n\nUsage: plinth context use [options] <name>\nRun `plinth context use --help` for its flags and the global flags.\n',
    );
  });

  it('5 rule 6: precedence is flags, then environment, then the context', async () => {
    await loggedInByDevice();
    const other = await ctx().addUser('member', 'env-user@clitest.example.com');
    const fromEnv = await plinth(['whoami'], { env: { PLINTH_API_KEY: other.apiKey } });
    expect(fromEnv.stdout).toContain('User         env-user@clitest.example.com');
    expect(fromEnv.stdout).toContain('Source       env PLINTH_API_KEY');
    const flagWins = await plinth(['whoami', '--context', 'device'], { env: { PLINTH_API_KEY: other.apiKey } });
    expect(flagWins.stdout).toContain('Source       context device');
    const noConfig = cliRunner(() => join(home(), 'empty'));
    const envOnly = await noConfig(['whoami', '--json'], { env: { PLINTH_API_URL: ctx().url, PLINTH_API_KEY: other.apiKey } });
    expect(JSON.parse(envOnly.stdout).credential.kind).toBe('apiKey');
    const forced = await noConfig(['whoami'], {
      env: { PLINTH_API_URL: ctx().url, PLINTH_API_KEY: other.apiKey, PLINTH_AUTH_SCHEME: 'bearer' },
    });
    expect(forced.code).toBe(4);
    expect(forced.stderr).toContain('API keys must be sent as "Authorization: Api-Key <key>"');
    expect(forced.stderr).toContain('hint: Run `plinth login` to sign in, or set PLINTH_API_KEY.');
    const nothing = await noConfig(['deployments', 'list']);
    expect(nothing.code).toBe(4);
    expect(nothing.stderr).toBe(
      'error: No server configured\nhint: Run `plinth login --url <base_url>`, or set PLINTH_API_URL and PLINTH_API_KEY.\n',
    );
  });

  it('logout revokes the login on the server and removes the credentials', async () => {
    await loggedInByDevice();
    const config = await readFile(configFile(), 'utf8');
    const access = /\[contexts\.device\][^[]*access_token = "([^"]+)"/.exec(config)![1]!;
    const out = await plinth(['logout', '--name', 'device']);
    expect(out.stderr).toBe('Logged out of context "device".\n');
    const response = await fetch(`${ctx().url}/api/v1/auth/whoami`, { headers: { authorization: `Bearer ${access}` } });
    expect(response.status).toBe(401);
    const after = await readFile(configFile(), 'utf8');
    expect(after).not.toContain(access);
    const who = await plinth(['whoami', '--context', 'device']);
    expect(who).toMatchObject({
      code: 4,
      stderr: `error: Not logged in to ${ctx().url} (context "device")\nhint: Run \`plinth login\` to sign in, or set PLINTH_API_KEY.\n`,
    });
    const list = await plinth(['deployments', 'list', '--context', 'device']);
    expect(list.code).toBe(4);
    expect(list.stderr.split('\n')[0]).toBe(`error: Not logged in to ${ctx().url} (context "device")`);
  });

  it("a login never replaces another credential's context without --force; a new context is named <host>-<user>", async () => {
    const fresh = cliRunner(() => join(home(), 'fresh'));
    const file = join(home(), 'fresh', 'plinth', 'config.toml');
    const asAdmin = await fresh(['login', '--api-key', ctx().admin.apiKey, '--url', ctx().url]);
    expect(asAdmin).toMatchObject({
      code: 0,
      stderr: `Logged in to ${ctx().url} as admin@clitest.example.com (key "admin key"); saved as context "127.0.0.1-admin".\n`,
    });
    // The member logging in on the same machine gets a context of their own; the admin's stays.
    const asMember = await fresh(['login', '--api-key', ctx().member.apiKey, '--url', ctx().url]);
    expect(asMember.stderr).toContain('saved as context "127.0.0.1-member".');
    const both = await readFile(file, 'utf8');
    expect(both).toContain(`api_key = "${ctx().admin.apiKey}"`);
    expect(both).toContain(`api_key = "${ctx().member.apiKey}"`);

    const cases: Array<{ name: string; argv: string[]; code: number }> = [
      {
        name: "another user into the admin's context",
        argv: ['--api-key', ctx().member.apiKey, '--url', ctx().url, '--name', '127.0.0.1-admin'],
        code: 2,
      },
      {
        name: "another server into the admin's context",
        argv: ['--api-key', ctx().admin.apiKey, '--url', 'http://localhost:1', '--name', '127.0.0.1-admin'],
        code: 2,
      },
      {
        name: 'the --context flag names the target too',
        argv: ['--api-key', ctx().member.apiKey, '--url', ctx().url, '--context', '127.0.0.1-admin'],
        code: 2,
      },
      {
        name: 'the same user again (a fresh credential)',
        argv: ['--api-key', ctx().admin.apiKey, '--url', ctx().url, '--name', '127.0.0.1-admin'],
        code: 0,
      },
    ];
    for (const { name, argv, code } of cases) {
      const result = await fresh(['login', ...argv]);
      expect(result.code, `${name}: ${result.stderr}`).toBe(code);
      if (code === 2) {
        expect(result.stderr.split('\n').slice(0, 2)).toEqual([
          'error: Context "127.0.0.1-admin" holds another credential (admin@clitest.example.com (key "admin key") on ' +
            ctx().url +
            '); nothing was saved',
          'hint: Choose another name with --name, or replace it with --force.',
        ]);
      }
      expect(await readFile(file, 'utf8'), name).toContain(`api_key = "${ctx().admin.apiKey}"`);
    }
    const forced = await fresh(['login', '--api-key', ctx().member.apiKey, '--url', ctx().url, '--name', '127.0.0.1-admin', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).not.toContain(`api_key = "${ctx().admin.apiKey}"`);
  });
});
