import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth workspace', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = (apiKey = ctx().admin.apiKey) => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey });
  const json = async (argv: string[], apiKey?: string) => {
    const result = await plinth([...argv, '--json'], { env: env(apiKey) });
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  };

  it('list shows my items, shared what others share with me, move puts an item into a folder', async () => {
    const d = String((await json(['deployments', 'create', '--name', 'd'])).id);
    const member = ctx().member.apiKey;
    const team = await json(['folders', 'create', d, '--name', 'team'], member);
    const other = await json(['folders', 'create', d, '--name', 'other'], member);
    const mine = await plinth(['workspace', 'list', d], { env: env(member) });
    expect(mine.code, mine.stderr).toBe(0);
    expect(mine.stdout).toMatch(new RegExp(`^TYPE\\s+ID\\s+NAME\\s+FOLDER\\s+UPDATED\\nFOLDER\\s+${other.id}\\s+other\\s+root`));
    // An admin reads every item: the member's are in the admin's shared workspace, none in its own.
    const shared = await json(['workspace', 'shared', d, '--type', 'folder', '--order-by', 'name', '--direction', 'DESC']);
    expect(shared.items.map((i: { name: string }) => i.name)).toEqual(['team', 'other']);
    expect(await plinth(['workspace', 'list', d], { env: env() })).toMatchObject({ code: 0, stderr: 'No results\n' });

    const moved = await plinth(['workspace', 'move', d, 'folder', String(other.id), '--into', String(team.id)], {
      env: env(member),
      stderrIsTTY: true,
    });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toMatch(new RegExp(`Moved folder ${other.id} into folder ${team.id}`));
    const inside = await json(['workspace', 'list', d, '--folder', String(team.id)], member);
    expect(inside.items).toEqual([expect.objectContaining({ type: 'FOLDER', id: other.id, parentId: team.id })]);
    const searched = await json(['workspace', 'list', d, '--search', 'OTH'], member);
    expect(searched.items.map((i: { id: number }) => i.id)).toEqual([other.id]);
    const back = await json(['workspace', 'move', d, 'FOLDER', String(other.id), '--root'], member);
    expect(back).toMatchObject({ type: 'FOLDER', folderId: null });
  });

  it.each([
    [['workspace', 'move', '1', 'folder', '2'], /--into <folder_id> or --root/],
    [['workspace', 'move', '1', 'sheet', '2', '--root'], /type must be one of FOLDER, WORKBOOK, REPORT/],
    [['workspace', 'list', '1', '--type', 'chart'], /type must be one of/],
    [['workspace', 'shared', '1', '--order-by', 'size'], /order-by/],
  ])('usage errors exit 2 before any request: %j', async (argv, message) => {
    const result = await plinth(argv, { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
