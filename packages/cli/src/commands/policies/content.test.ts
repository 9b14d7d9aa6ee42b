import { expect, it } from 'vitest';
import { contentIn } from '@plinth/server/test-support';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth policies on workspace content', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = (apiKey = ctx().admin.apiKey) => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey });

  /** grand › parent › report, written straight into the store (the folders and reports commands are not under test). */
  const workspace = async () => {
    const { server, accountId, member } = ctx();
    const d = (await server.services.deployments.create(accountId, { name: 'd' }, 'http://localhost')).id;
    const content = contentIn(server, accountId, d);
    const grand = await content.folder(member.id);
    const parent = await content.folder(member.id, grand);
    const report = await content.report(member.id, parent);
    return { d, grand, parent, report };
  };

  it('set-user and set-group on a Folder and a Report; get prints inherited rows with their source folder', async () => {
    const { d, grand, parent, report } = await workspace();
    const reader = await ctx().addUser('member');
    const group = JSON.parse((await plinth(['groups', 'create', '--name', 'editors', '--json'], { env: env() })).stdout);
    // The member created the folders: it shares them itself, with no admin role.
    const shared = await plinth(
      ['policies', 'set-user', String(reader.id), '--resource-type', 'folder', '--resource-id', String(grand), '--action', 'ReportRead'],
      {
        env: env(ctx().member.apiKey),
        stderrIsTTY: true,
      },
    );
    expect(shared.code, shared.stderr).toBe(0);
    expect(shared.stderr + shared.stdout).toMatch(`User ${reader.id} holds ReportRead on folder ${grand}`);
    const grouped = await plinth(
      ['policies', 'set-group', String(group.id), '--resource-type', 'Folder', '--resource-id', String(parent), '--action', 'WorkbookEdit'],
      { env: env() },
    );
    expect(grouped.code, grouped.stderr).toBe(0);
    expect(
      (await plinth(['policies', 'set-group', String(group.id), '--deployment', String(d), '--action', 'DeploymentRead'], { env: env() }))
        .code,
    ).toBe(0);
    expect((await plinth(['policies', 'set-user', String(reader.id), '--global', '--action', 'SchemaRead'], { env: env() })).code).toBe(0);
    const own = await plinth(
      ['policies', 'set-user', String(reader.id), '--resource-type', 'Report', '--resource-id', String(report), '--action', 'ReportEdit'],
      { env: env() },
    );
    expect(own.code, own.stderr).toBe(0);

    const got = await plinth(['policies', 'get', '--resource-type', 'Report', '--resource-id', String(report)], { env: env() });
    expect(got.code, got.stderr).toBe(0);
    const folderName = (id: number) =>
      ctx().server.store.db.selectFrom('folder').select('name').where('id', '=', id).executeTakeFirstOrThrow();
    expect(got.stdout).toMatch(new RegExp(`user ${reader.id}\\s+ReportEdit\\s+this resource`));
    expect(got.stdout).toMatch(new RegExp(`user ${reader.id}\\s+ReportRead\\s+folder ${grand} \\(${(await folderName(grand)).name}\\)`));
    expect(got.stdout).toMatch(
      new RegExp(`group ${group.id}\\s+WorkbookEdit\\s+folder ${parent} \\(${(await folderName(parent)).name}\\)`),
    );
    expect(got.stdout).toMatch(new RegExp(`group ${group.id}\\s+DeploymentRead\\s+deployment`));
    expect(got.stdout).toMatch(new RegExp(`user ${reader.id}\\s+SchemaRead\\s+Global`));

    const json = JSON.parse(
      (await plinth(['policies', 'get', '--resource-type', 'Folder', '--resource-id', String(parent), '--json'], { env: env() })).stdout,
    );
    expect(json.groupPolicies).toEqual([{ groupId: group.id, action: 'WorkbookEdit' }]);
    expect(json.inheritedUserPolicies[0]).toMatchObject({
      userId: reader.id,
      action: 'ReportRead',
      sourceFolder: { id: grand, type: 'FOLDER', parentId: null },
    });

    const removed = await plinth(
      ['policies', 'set-user', String(reader.id), '--resource-type', 'Report', '--resource-id', String(report), '--remove'],
      { env: env(), stderrIsTTY: true },
    );
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr + removed.stdout).toMatch(`Removed the policy of user ${reader.id} on report ${report}`);
  });

  it('the server names an action that does not fit the type, and a type it does not serve', async () => {
    const { report } = await workspace();
    const wrong = await plinth(
      [
        'policies',
        'set-user',
        String(ctx().member.id),
        '--resource-type',
        'Report',
        '--resource-id',
        String(report),
        '--action',
        'DeploymentRead',
      ],
      { env: env() },
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/action DeploymentRead does not apply to a Report/);
    const agent = await plinth(['policies', 'get', '--resource-type', 'Agent', '--resource-id', '1'], { env: env() });
    expect(agent.code).toBe(1);
    expect(agent.stderr).toMatch(/resourceType Agent is not served yet/);
  });

  it.each([
    [['policies', 'get', '--resource-type', 'Folder'], /--resource-type Folder needs --resource-id <id>/],
    [['policies', 'get', '--resource-id', '3'], /--resource-id goes with --resource-type/],
    [['policies', 'get', '--resource-type', 'Shelf', '--resource-id', '3'], /--resource-type must be one of Global, Deployment, Folder/],
    [['policies', 'get', '--resource-type', 'Folder', '--resource-id', '3', '--global'], /--global and --resource-type do not go together/],
    [['policies', 'get', '--resource-type', 'Report', '--resource-id', 'x'], /--resource-id must be a positive whole number/],
    [['policies', 'set-user', '1', '--resource-type', 'Global', '--resource-id', '4', '--action', 'All'], /Global takes --resource-id 0/],
  ])('usage errors exit 2: %j', async (argv, message) => {
    const result = await plinth(argv, { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
