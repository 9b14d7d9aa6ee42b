import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BROKEN_CUBE, countCube } from '@plinth/server/test-support';
import { cliRunner, describeCli } from '../../test-support/harness.js';

/** Server messages hold `.`, `(`, `"` and `\`: matched literally inside the error line's pattern. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The issue's rules (conflicts, pull, no-op put, bad paths, limits, history, writes only on dev
 * branches, delete-branch, validate) driven through `plinth` against a real server; section 3's rows
 * and rule 4 are in data-model.test.ts.
 */
describeCli('plinth data-model (the rules of issue 13)', (ctx, home) => {
  const plinth = cliRunner(home);
  const as = (apiKey: string) => ({ env: { PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey } });
  const deployment = async () => (await ctx().server.services.deployments.create(ctx().accountId, { name: 'analytics' }, ctx().url)).id;
  /** `plinth data-model <verb> <deployment> ...` as the admin or another key; status lines only reach a terminal. */
  const dm = (id: number, verb: string, rest: string[] = [], key = ctx().admin.apiKey, stderrIsTTY = false) =>
    plinth(['data-model', verb, String(id), ...rest], { ...as(key), stderrIsTTY });
  let n = 0;
  const local = async (content: string) => {
    const path = join(home(), `file-${++n}.yml`);
    await writeFile(path, content);
    return path;
  };
  const ok = (result: { code: number; stderr: string }) => expect(result.code, result.stderr).toBe(0);
  /** Exit 1 and the platform error line (the CLI appends the request id after it). */
  const refused = (result: { code: number; stderr: string }, message: string, status: number) => {
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^error: ${escape(message)} \\(HTTP ${status}\\)( \\[request [^\\]]+\\])?\\n$`));
  };
  const put = async (id: number, path: string, content: string, rest: string[] = [], key?: string) =>
    dm(id, 'put', [path, '--file', await local(content), ...rest], key);
  const json = async (id: number, verb: string, rest: string[] = [], key?: string) =>
    JSON.parse((await dm(id, verb, [...rest, '--json'], key)).stdout);
  const paths = async (id: number, branch: string) =>
    (await json(id, 'list', ['--branch', branch])).items.map((item: { path: string }) => item.path);
  const messages = async (id: number, branch: string) =>
    (await json(id, 'log', ['--branch', branch])).items.map((commit: { message: string }) => commit.message);
  /** A deployment with a shared branch `feature`, and `keys` each in dev mode on it. */
  const sharedWithDevs = async (keys: string[]) => {
    const id = await deployment();
    ok(await dm(id, 'create-branch', ['feature']));
    for (const key of keys) ok(await dm(id, 'dev-mode', ['feature'], key));
    return id;
  };

  it('conflicting edits: the second commit of the same file exits 1 naming it; the shared branch keeps the first edit', async () => {
    const other = (await ctx().addUser('admin')).apiKey;
    const id = await sharedWithDevs([ctx().admin.apiKey, other]);
    ok(await put(id, 'model/cubes/x.yml', 'first\n'));
    ok(await put(id, 'model/cubes/x.yml', 'second\n', [], other));
    ok(await dm(id, 'commit', ['-m', 'first']));
    refused(await dm(id, 'commit', ['-m', 'second'], other), 'Conflicting changes to model/cubes/x.yml on branch feature', 409);
    expect((await dm(id, 'get', ['model/cubes/x.yml', '--branch', 'feature'])).stdout).toBe('first\n');
    expect((await messages(id, 'feature'))[0]).toBe('first');
    // Nothing is written by the refused commit: the second edit waits on its dev branch.
    expect((await dm(id, 'get', ['model/cubes/x.yml'], other)).stdout).toBe('second\n');
  });

  it('conflicting edits: edits to different files by two credentials both commit cleanly', async () => {
    const other = (await ctx().addUser('admin')).apiKey;
    const id = await sharedWithDevs([ctx().admin.apiKey, other]);
    ok(await put(id, 'model/cubes/a.yml', 'a\n'));
    ok(await put(id, 'model/cubes/b.yml', 'b\n', [], other));
    ok(await dm(id, 'commit', ['-m', 'a']));
    ok(await dm(id, 'commit', ['-m', 'b'], other));
    expect(await paths(id, 'feature')).toEqual(['model/cubes/a.yml', 'model/cubes/b.yml']);
    expect((await dm(id, 'get', ['model/cubes/b.yml', '--branch', 'feature'])).stdout).toBe('b\n');
  });

  it("pull brings the shared branch's newer commits into a dev branch, keeping its own edits", async () => {
    const other = (await ctx().addUser('admin')).apiKey;
    const id = await sharedWithDevs([ctx().admin.apiKey, other]);
    ok(await put(id, 'model/mine.yml', 'mine\n'));
    ok(await put(id, 'model/theirs.yml', 'theirs\n', [], other));
    ok(await dm(id, 'commit', ['-m', 'theirs'], other));
    const dev = (await json(id, 'dev-mode-status')).branchName;
    expect(await paths(id, dev)).toEqual(['model/mine.yml']);
    const pulled = await dm(id, 'pull', ['--json']);
    ok(pulled);
    expect(JSON.parse(pulled.stdout)).toMatchObject({ branchName: dev, changed: true });
    expect(await paths(id, dev)).toEqual(['model/mine.yml', 'model/theirs.yml']);
    expect((await dm(id, 'get', ['model/theirs.yml'])).stdout).toBe('theirs\n');
    expect(JSON.parse((await dm(id, 'pull', ['--json'])).stdout)).toMatchObject({ changed: false });
  });

  it('a put of the same content makes no commit', async () => {
    const id = await deployment();
    const dev = (await dm(id, 'dev-mode', ['main'])).stdout.trim();
    ok(await put(id, 'model/a.yml', 'a: 1\n'));
    const before = await messages(id, dev);
    const same = await dm(id, 'put', ['model/a.yml', '--file', await local('a: 1\n')], ctx().admin.apiKey, true);
    ok(same);
    expect(same.stderr).toBe(`model/a.yml is unchanged on ${dev}\n`);
    expect(await messages(id, dev)).toEqual(before);
  });

  it.each([
    ['../x.yml', 'it has a ".." segment'],
    ['/etc/passwd', 'it is absolute; give it relative to the model root, e.g. model/cubes/orders.yml'],
    ['model/../../x', 'it has a ".." segment'],
    ['model\\x.yml', 'it contains a backslash; separate folders with /'],
  ])('bad paths: %j is refused by put, get, delete and rename', async (bad, reason) => {
    const id = await deployment();
    ok(await dm(id, 'dev-mode', ['main']));
    ok(await put(id, 'model/good.yml', 'good\n'));
    const attempts = [
      await put(id, bad, 'evil\n'),
      await dm(id, 'get', [bad]),
      await dm(id, 'delete', [bad]),
      await dm(id, 'rename', [bad, 'model/y.yml']),
      await dm(id, 'rename', ['model/good.yml', bad]),
    ];
    for (const attempt of attempts) refused(attempt, `Invalid path ${JSON.stringify(bad)}: ${reason}`, 400);
    expect(await paths(id, '')).toEqual(['model/good.yml']);
  });

  const MIB = 1024 * 1024;
  it.each([
    ['exactly 1 MiB is accepted', 'a'.repeat(MIB), true],
    ['1 MiB and one byte is refused', 'a'.repeat(MIB + 1), false],
    ['1 MiB counted in UTF-8 bytes, not characters, is refused', 'é'.repeat(MIB / 2 + 1), false],
  ])('limits: a file of %s', async (_, content, accepted) => {
    const id = await deployment();
    ok(await dm(id, 'dev-mode', ['main']));
    const result = await put(id, 'model/big.yml', content);
    const bytes = Buffer.byteLength(content);
    if (accepted) {
      ok(result);
      expect((await json(id, 'list')).items).toMatchObject([{ path: 'model/big.yml', size: bytes }]);
    } else {
      refused(result, `File "model/big.yml" is ${bytes} bytes; a file may be at most 1 MiB (${MIB} bytes)`, 413);
      expect(await paths(id, '')).toEqual([]);
    }
  });

  it('history: log lists commits newest first with their messages', async () => {
    const id = await deployment();
    const dev = (await dm(id, 'dev-mode', ['main'])).stdout.trim();
    ok(await put(id, 'model/a.yml', 'a\n', ['-m', 'Add a']));
    ok(await put(id, 'model/b.yml', 'b\n', ['-m', 'Add b']));
    const log = await dm(id, 'log');
    ok(log);
    expect(log.stdout).toMatch(/^ID +MESSAGE +AUTHOR +CREATED\n\d+ +Add b +apiKey:\d+ .*\n\d+ +Add a +apiKey:\d+ /);
    const items = (await json(id, 'log', ['--branch', dev])).items as { id: number; message: string }[];
    expect(items.slice(0, 2).map((commit) => commit.message)).toEqual(['Add b', 'Add a']);
    expect(items[0]!.id).toBeGreaterThan(items[1]!.id);
    ok(await dm(id, 'commit', ['-m', 'Ship a and b']));
    expect((await messages(id, 'main'))[0]).toBe('Ship a and b');
  });

  it('history: diff on a dev branch lists added, modified and deleted paths', async () => {
    const id = await deployment();
    ok(await dm(id, 'dev-mode', ['main']));
    ok(await put(id, 'model/kept.yml', 'v1\n'));
    ok(await put(id, 'model/gone.yml', 'gone\n'));
    ok(await dm(id, 'commit', ['-m', 'base']));
    ok(await put(id, 'model/kept.yml', 'v2\n'));
    ok(await dm(id, 'delete', ['model/gone.yml']));
    ok(await put(id, 'model/new.yml', 'new\n'));
    const diff = await dm(id, 'diff');
    ok(diff);
    const rows = diff.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/ +/));
    expect(rows.sort()).toEqual([
      ['added', 'model/new.yml'],
      ['deleted', 'model/gone.yml'],
      ['modified', 'model/kept.yml'],
    ]);
    expect(diff.stdout.split('\n')[0]).toMatch(/^CHANGE +PATH$/);
  });

  it('rename and delete work on a dev branch', async () => {
    const id = await deployment();
    ok(await dm(id, 'dev-mode', ['main']));
    ok(await put(id, 'model/a.yml', 'a\n'));
    ok(await dm(id, 'rename', ['model/a.yml', 'model/b.yml']));
    expect(await paths(id, '')).toEqual(['model/b.yml']);
    expect((await dm(id, 'get', ['model/b.yml'])).stdout).toBe('a\n');
    const absent = await dm(id, 'get', ['model/a.yml']);
    expect(absent.code).toBe(1);
    ok(await dm(id, 'delete', ['model/b.yml']));
    expect(await paths(id, '')).toEqual([]);
  });

  it.each(['main', 'feature'])(
    'rename and delete are refused on the shared branch %s with the not-a-dev-mode-branch message',
    async (branch) => {
      const id = await sharedWithDevs([ctx().admin.apiKey]);
      ok(await put(id, 'model/a.yml', 'a\n'));
      ok(await dm(id, 'commit', ['-m', 'a']));
      ok(await dm(id, 'merge', ['feature', 'main']));
      const message = `Branch ${branch} is not a dev-mode branch; run plinth data-model dev-mode ${id} ${branch} to get one`;
      refused(await dm(id, 'rename', ['model/a.yml', 'model/b.yml', '--branch', branch]), message, 400);
      refused(await dm(id, 'delete', ['model/a.yml', '--branch', branch]), message, 400);
      expect(await paths(id, branch)).toEqual(['model/a.yml']);
    },
  );

  it('delete-branch refuses the deploy branch', async () => {
    const id = await deployment();
    ok(await dm(id, 'branches'));
    refused(await dm(id, 'delete-branch', ['main']), `Branch main is the deploy branch of deployment ${id} and cannot be deleted`, 400);
    expect((await json(id, 'branches')).items.map((b: { name: string }) => b.name)).toEqual(['main']);
  });

  it('delete-branch of a dev branch removes it and closes the session that pointed at it', async () => {
    const id = await deployment();
    const dev = (await dm(id, 'dev-mode', ['main'])).stdout.trim();
    ok(await put(id, 'model/a.yml', 'a\n'));
    const removed = await dm(id, 'delete-branch', [dev], ctx().admin.apiKey, true);
    ok(removed);
    expect(removed.stderr).toBe(`Deleted branch ${dev}\n`);
    expect(await json(id, 'dev-mode-status')).toEqual({ active: false, branchName: null, forkedFrom: null });
    expect((await json(id, 'branches')).items.map((b: { name: string }) => b.name)).toEqual(['main']);
    refused(await dm(id, 'list', ['--branch', dev]), `Branch ${dev} not found`, 404);
    const sessions = await ctx().server.store.db.selectFrom('dev_mode_session').select('branch_name').execute();
    expect(sessions.map((s) => s.branch_name)).not.toContain(dev);
  });

  it.each([
    [{ 'model/cubes/a.yml': countCube('a') }, 'Valid: 1 cube\n'],
    [{ 'model/cubes/a.yml': countCube('a'), 'model/cubes/b.yml': countCube('b') }, 'Valid: 2 cubes\n'],
  ])('validate --branch <shared> exits 0 with "Valid: N countCube(s)" (%#)', async (files, expected) => {
    const id = await sharedWithDevs([ctx().admin.apiKey]);
    for (const [path, content] of Object.entries(files)) ok(await put(id, path, content));
    ok(await dm(id, 'commit', ['-m', 'cubes']));
    const result = await plinth(['validate', String(id), '--branch', 'feature'], as(ctx().admin.apiKey));
    expect(result).toMatchObject({ code: 0, stdout: expected });
  });

  it.each([
    ['a cube without sql_table', BROKEN_CUBE],
    ['a YAML syntax error', 'cubes:\n  - name: broken\n    sql_table: broken\n   measures: [\n'],
  ])('validate --branch <shared> exits 1 listing file:line:column: message for %s', async (_, content) => {
    const id = await sharedWithDevs([ctx().admin.apiKey]);
    ok(await put(id, 'model/cubes/ok.yml', countCube('ok')));
    ok(await put(id, 'model/cubes/broken.yml', content));
    ok(await dm(id, 'commit', ['-m', 'broken']));
    const result = await plinth(['validate', String(id), '--branch', 'feature'], as(ctx().admin.apiKey));
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^model\/cubes\/broken\.yml:\d+:\d+: \S/);
    expect(result.stderr).toMatch(/^error: The data model of branch feature at commit \d+ has \d+ errors?\n$/);
  });
});
