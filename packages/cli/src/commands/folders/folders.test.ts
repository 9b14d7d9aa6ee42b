import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth folders', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = (apiKey = ctx().admin.apiKey) => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey });
  const json = async (argv: string[], apiKey?: string) => {
    const result = await plinth([...argv, '--json'], { env: env(apiKey) });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout ? JSON.parse(result.stdout) : undefined;
  };

  it('create, list (a table by position), update (rename, move), ancestors, delete refused then --delete-contents', async () => {
    const d = String((await json(['deployments', 'create', '--name', 'd'])).id);
    const sales = await json(['folders', 'create', d, '--name', 'Sales']);
    expect(sales).toMatchObject({ name: 'Sales', parentId: null, type: 'FOLDER' });
    const q1 = await json(['folders', 'create', d, '--name', 'Q1', '--parent', String(sales.id), '--position', '4']);
    const listed = await plinth(['folders', 'list', d], { env: env() });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^ID\\s+NAME\\s+PARENT\\s+POSITION\\s+UPDATED\\n${sales.id}\\s+Sales\\s+root\\s+0\\s`));
    expect((await json(['folders', 'list', d, '--parent', String(sales.id)])).items.map((f: { id: number }) => f.id)).toEqual([q1.id]);

    const renamed = await json(['folders', 'update', d, String(q1.id), '--name', 'Q1 2026']);
    expect(renamed).toMatchObject({ name: 'Q1 2026', parentId: sales.id, position: 4 });
    const ancestors = await plinth(['folders', 'ancestors', d, String(q1.id)], { env: env() });
    expect(ancestors.stdout).toMatch(/Sales[\s\S]*Q1 2026/);
    const cycle = await plinth(['folders', 'update', d, String(sales.id), '--parent', String(q1.id)], { env: env() });
    expect(cycle.code).toBe(1);
    expect(cycle.stderr).toMatch(new RegExp(`Folder ${sales.id} cannot move into folder ${q1.id}`));

    const refused = await plinth(['folders', 'delete', d, String(sales.id)], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/it holds 1 item \(1 folder\).*deleteContents=true/);
    const deleted = await plinth(['folders', 'delete', d, String(sales.id), '--delete-contents'], { env: env(), stderrIsTTY: true });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toMatch(new RegExp(`Deleted folder ${sales.id} and everything in it`));
    expect(await plinth(['folders', 'list', d], { env: env() })).toMatchObject({ code: 0, stderr: 'No results\n' });
  });

  it.each([
    [['folders', 'create', '1'], /--name/],
    [['folders', 'create', '1', '--name', '  '], /--name is blank/],
    [['folders', 'create', '1', '--name', 'x', '--parent', 'up'], /--parent must be a positive whole number/],
    [['folders', 'update', '1', 'x', '--name', 'y'], /folder_id must be a positive whole number/],
    [['folders', 'list', 'abc'], /deployment_id/],
  ])('usage errors exit 2 before any request: %j', async (argv, message) => {
    const result = await plinth(argv, { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
