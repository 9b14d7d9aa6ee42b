import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth users, groups, attributes, tenant, integrations and api-keys', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  const json = async (argv: string[], extra: Record<string, string> = {}) => {
    const result = await plinth([...argv, '--json'], { env: { ...env(), ...extra } });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout ? JSON.parse(result.stdout) : undefined;
  };

  it('users: create, list, update, set-password, invite, me and delete', async () => {
    const user = await json(['users', 'create', '--email', 'ada@clitest.example.com', '--display-name', 'Ada', '--role', 'member']);
    const list = await plinth(['users', 'list', '--email', 'ada@clitest.example.com'], { env: env() });
    expect(list.stdout).toBe(
      `ID  EMAIL                    NAME  TITLE  ROLE    ACTIVE  LAST LOGIN\n` +
        `${String(user.id).padEnd(2)}  ada@clitest.example.com  Ada          member  true\n`,
    );
    expect((await json(['users', 'update', String(user.id), '--active', 'false'])).active).toBe(false);
    await json(['users', 'update', String(user.id), '--active', 'true']);
    const badBool = await plinth(['users', 'update', String(user.id), '--active', 'maybe'], { env: env() });
    expect(badBool).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('error: --active expects true or false, got "maybe"\n\nUsage: plinth '),
    });

    const pw = await plinth(['users', 'set-password', String(user.id), '--password-stdin'], { env: env(), stdin: 'a long password 1\n' });
    expect(pw).toMatchObject({ code: 0, stderr: `Password set for user ${user.id}.\n` });
    await expect(
      ctx().server.services.login.signIn.authenticate(ctx().accountId, 'ada@clitest.example.com', 'a long password 1'),
    ).resolves.toBeTruthy();
    const short = await plinth(['users', 'set-password', String(user.id), '--password', 'short'], { env: env() });
    expect(short.code).toBe(1);

    const invite = await plinth(['users', 'invite', String(user.id)], { env: env() });
    expect(invite.stdout).toMatch(new RegExp(`^${ctx().url.replace(/\./g, '\\.')}/login/invite\\?token=pli_\\w+\\n$`));
    expect((await json(['users', 'me'])).email).toBe('admin@clitest.example.com');
    expect((await plinth(['users', 'delete', String(user.id)], { env: env() })).code).toBe(0);
    expect((await plinth(['users', 'get', String(user.id)], { env: env() })).code).toBe(1);
  });

  it('every command that takes a user takes its e-mail address too, resolved through the server', async () => {
    const user = await json(['users', 'create', '--email', 'Grace@clitest.example.com', '--role', 'member']);
    const group = await json(['groups', 'create', '--name', 'by-email']);
    await json(['attributes', 'create', '--name', 'team', '--type', 'string']);
    const email = 'grace@CLITEST.example.com'; // matched ignoring case, as sign-in does
    const cases: Array<{ argv: string[]; stdin?: string; check?: () => Promise<void> }> = [
      { argv: ['users', 'get', email], check: async () => expect((await json(['users', 'get', email])).id).toBe(user.id) },
      { argv: ['users', 'update', email, '--display-name', 'Grace H'] },
      { argv: ['users', 'set-password', email, '--password-stdin'], stdin: 'a long password 2' },
      { argv: ['users', 'invite', email] },
      { argv: ['groups', 'add-members', String(group.id), email, String(ctx().member.id)] },
      { argv: ['groups', 'remove-member', String(group.id), email] },
      { argv: ['attributes', 'set-values', email, 'team=core'] },
      { argv: ['attributes', 'values', email] },
    ];
    for (const { argv, stdin, check } of cases) {
      const result = await plinth(argv, { env: env(), stdin });
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
      await check?.();
    }
    expect((await json(['users', 'get', String(user.id)])).displayName).toBe('Grace H');
    await expect(
      ctx().server.services.login.signIn.authenticate(ctx().accountId, 'grace@clitest.example.com', 'a long password 2'),
    ).resolves.toBeTruthy();
    expect((await json(['attributes', 'values', String(user.id)])).find((v: { name: string }) => v.name === 'team').value).toBe('core');
    expect((await json(['groups', 'members', String(group.id)])).items.map((u: { id: number }) => u.id)).toEqual([ctx().member.id]);

    const unknown = await plinth(['users', 'invite', 'nobody@clitest.example.com'], { env: env() });
    expect(unknown).toMatchObject({
      code: 1,
      stderr: 'error: No user with the e-mail address nobody@clitest.example.com\nhint: List the users with `plinth users list`.\n',
    });
    for (const bad of ['0', 'grace', '1.5', 'a b@c']) {
      const result = await plinth(['users', 'delete', bad], { env: env() });
      expect(result.code, bad).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(`error: user must be a user id or an e-mail address, got "${bad}"`);
    }
    expect((await plinth(['users', 'delete', email], { env: env() })).code).toBe(0);
    expect((await plinth(['groups', 'delete', String(group.id)], { env: env() })).code).toBe(0);
  });

  it('groups: create, members and delete', async () => {
    const group = await json(['groups', 'create', '--name', 'analysts', '--description', 'Read dashboards']);
    const add = await plinth(['groups', 'add-members', String(group.id), String(ctx().member.id)], { env: env() });
    expect(add.code, add.stderr).toBe(0);
    const members = await plinth(['groups', 'members', String(group.id)], { env: env() });
    expect(members.stdout).toContain('member@clitest.example.com');
    const list = await plinth(['groups', 'list'], { env: env() });
    expect(list.stdout).toBe(`ID  NAME      USERS  DESCRIPTION\n${String(group.id).padEnd(2)}  analysts  1      Read dashboards\n`);
    await plinth(['groups', 'remove-member', String(group.id), String(ctx().member.id)], { env: env() });
    expect((await json(['groups', 'get', String(group.id)])).userCount).toBe(0);
    expect((await json(['groups', 'update', String(group.id), '--name', 'readers'])).name).toBe('readers');
    expect((await plinth(['groups', 'delete', String(group.id)], { env: env() })).code).toBe(0);
  });

  it('attributes: definitions and the values of a user', async () => {
    const attr = await json(['attributes', 'create', '--name', 'region', '--type', 'string', '--default-value', 'emea']);
    await json(['attributes', 'create', '--name', 'level', '--type', 'number']);
    const set = await plinth(['attributes', 'set-values', String(ctx().member.id), 'region=apac', 'level=3'], { env: env() });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^NAME +VALUE\n/);
    expect(set.stdout).toMatch(/\nregion +apac\n/);
    const values = await json(['attributes', 'values', String(ctx().member.id)]);
    expect(values).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'region', value: 'apac' }),
        expect.objectContaining({ name: 'level', value: 3 }),
      ]),
    );
    expect((await json(['attributes', 'update', String(attr.id), '--display-name', 'Region'])).displayName).toBe('Region');
    const list = await plinth(['attributes', 'list'], { env: env() });
    expect(list.stdout.split('\n')[0]).toBe('ID  NAME    TYPE    DISPLAY NAME  DEFAULT');
    expect((await plinth(['attributes', 'delete', String(attr.id)], { env: env() })).code).toBe(0);
  });

  it('tenant settings: show and update', async () => {
    const updated = await json(['tenant', 'update', '--use-creator-mode', 'true', '--bulk-action-limit', '50']);
    expect(updated).toMatchObject({ useCreatorMode: true, bulkActionLimit: 50 });
    const show = await plinth(['tenant', 'show'], { env: env() });
    // One column of names, as wide as the longest name (embedFrameAncestors), then the values.
    expect(show.stdout).toMatch(/^useCreatorMode +true$/m);
    expect(show.stdout).toMatch(/^bulkActionLimit +50$/m);
    // Not set: any origin may frame the embed pages (printed empty, as every unset value is).
    expect(show.stdout).toMatch(/^embedFrameAncestors$/m);
  });

  it('integrations and api-keys', async () => {
    const created = await json([
      'integrations',
      'create',
      '--name',
      'Snow',
      '--type',
      'snowflake',
      '--auth-url',
      'https://a.example.com/auth',
      '--token-url',
      'https://a.example.com/token',
      '--client-id',
      'cid',
      '--client-secret',
      's3cret',
      '--redirect-uri',
      'https://p.example.com/cb',
    ]);
    expect(created).toMatchObject({ name: 'Snow', hasClientSecret: true });
    const list = await plinth(['integrations', 'list'], { env: env() });
    expect(list.stdout).toBe(
      `ID  NAME  TYPE       CLIENT ID  REDIRECT URI\n${String(created.id).padEnd(2)}  Snow  snowflake  cid        https://p.example.com/cb\n`,
    );
    expect((await json(['integrations', 'update', String(created.id), '--name', 'Snowflake'])).name).toBe('Snowflake');
    expect((await plinth(['integrations', 'delete', String(created.id)], { env: env() })).code).toBe(0);

    const key = await json(['api-keys', 'create', '--name', 'ci', '--role', 'member']);
    expect(key.key).toMatch(/^sk-/);
    const keys = await plinth(['api-keys', 'list'], { env: env() });
    expect(keys.stdout.split('\n')[0]).toBe(
      'ID  NAME        ROLE    PREFIX    DEPLOYMENTS  PERMISSIONS  LAST USED                 REVOKED'.replace(
        / +LAST USED +/,
        keys.stdout.split('\n')[0]!.match(/ +LAST USED +/)![0],
      ),
    );
    expect(keys.stdout).toContain('ci ');
    expect((await plinth(['api-keys', 'revoke', String(key.id)], { env: env() })).code).toBe(0);
    const revoked = await plinth(['deployments', 'list'], { env: { ...env(), PLINTH_API_KEY: key.key } });
    expect(revoked.code).toBe(4);
    expect(revoked.stderr).toMatch(/^error: The API key has been revoked \(HTTP 401\)/);
  });
});
