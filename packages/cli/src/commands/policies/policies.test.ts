import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth policies and api-keys --permission', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = (apiKey = ctx().admin.apiKey) => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey });
  const deployment = async () => {
    const created = await plinth(['deployments', 'create', '--name', 'd', '--json'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    return String(JSON.parse(created.stdout).id);
  };

  it('set-user, set-group and list, with the inherited Global policies', async () => {
    const id = await deployment();
    const member = String(ctx().member.id);
    const set = await plinth(['policies', 'set-user', member, '--deployment', id, '--action', 'SchemaUpdate'], {
      env: env(),
      stderrIsTTY: true,
    });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr + set.stdout).toMatch(new RegExp(`User ${member} holds SchemaUpdate on deployment ${id}`));
    const group = await plinth(['groups', 'create', '--name', 'modellers', '--json'], { env: env() });
    const groupId = String(JSON.parse(group.stdout).id);
    const global = await plinth(['policies', 'set-group', groupId, '--global', '--action', 'DeploymentRead'], { env: env() });
    expect(global.code, global.stderr).toBe(0);

    const listed = await plinth(['policies', 'list', '--deployment', id], { env: env() });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`user ${member}\\s+SchemaUpdate\\s+this resource`));
    expect(listed.stdout).toMatch(new RegExp(`group ${groupId}\\s+DeploymentRead\\s+Global`));
    const json = JSON.parse((await plinth(['policies', 'list', '--global', '--json'], { env: env() })).stdout);
    expect(json.groupPolicies).toEqual([{ groupId: Number(groupId), action: 'DeploymentRead' }]);

    const removed = await plinth(['policies', 'set-user', member, '--deployment', id, '--remove'], { env: env() });
    expect(removed.code, removed.stderr).toBe(0);
    const after = JSON.parse((await plinth(['policies', 'list', '--deployment', id, '--json'], { env: env() })).stdout);
    expect(after.userPolicies).toEqual([]);
  });

  it.each([
    [['policies', 'list'], /--deployment <id>, --global, or --resource-type/],
    [['policies', 'list', '--deployment', '1', '--global'], /do not go together/],
    [['policies', 'set-user', '1', '--global'], /--action <action> or --remove/],
    [['policies', 'set-user', '1', '--global', '--action', 'All', '--remove'], /--action <action> or --remove/],
    [['policies', 'set-group', 'x', '--global', '--action', 'All'], /group_id/],
    [['api-keys', 'create', '--name', 'ci', '--permission', 'SchemaRead'], /--permission needs --deployment/],
    [['api-keys', 'create', '--name', 'ci', '--permission', 'SchemaRead', '--role', 'admin', '--deployment', '1'], /do not go together/],
  ])('usage errors print usage and exit 2: %j', async (argv, message) => {
    const result = await plinth(argv, { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/Usage: plinth/);
  });

  it('api-keys create --permission … --deployment makes a key of exactly those; list shows them; an unknown one is named', async () => {
    const id = await deployment();
    const perms = ['SchemaRead', 'SchemaUpdate', 'SchemaUpdateDevBranches', 'DeploymentRead'];
    const created = await plinth(
      ['api-keys', 'create', '--name', 'ci', ...perms.flatMap((p) => ['--permission', p]), '--deployment', id, '--json'],
      { env: env() },
    );
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ permissions: perms, deploymentIds: [Number(id)] });
    const listed = await plinth(['api-keys', 'list'], { env: env() });
    expect(listed.stdout).toMatch(/SchemaRead, SchemaUpdate|SchemaRead,SchemaUpdate/);

    // The key reads its deployment, and is refused a production token, naming the permission.
    const got = await plinth(['deployments', 'get', id], { env: env(key.key) });
    expect(got.code, got.stderr).toBe(0);
    const token = await plinth(['deployments', 'token', id], { env: env(key.key) });
    expect(token.code).toBe(1);
    expect(token.stderr).toMatch(new RegExp(`does not grant DeploymentUpdate on deployment ${id}`));
    const devToken = await plinth(['deployments', 'token', id, '--branch', 'nope'], { env: env(key.key) });
    expect(devToken.stderr).toMatch(/Branch nope not found/);

    const unknown = await plinth(['api-keys', 'create', '--name', 'x', '--permission', 'Teleport', '--deployment', id], { env: env() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Unknown permission "Teleport"/);
  });
});
