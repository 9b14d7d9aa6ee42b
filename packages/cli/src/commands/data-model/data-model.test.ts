import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

const cube = (name: string) =>
  `cubes:\n  - name: ${name}\n    sql_table: ${name}\n    measures:\n      - name: count\n        type: count\n`;

const notDev = (deploymentId: number, name: string) =>
  `error: Branch ${name} is not a dev-mode branch; run plinth data-model dev-mode ${deploymentId} ${name} to get one (HTTP 400)`;

describeCli('plinth data-model (section 3 and rule 4 of 4.8)', (ctx, home) => {
  const plinth = cliRunner(home);
  const as = (apiKey: string) => ({ env: { PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey } });
  const deployment = async () => (await ctx().server.services.deployments.create(ctx().accountId, { name: 'analytics' }, ctx().url)).id;
  /** `plinth data-model <verb> <deployment> ...` as the admin, or as another key. */
  const dm = (id: number, verb: string, rest: string[] = [], key = ctx().admin.apiKey) =>
    plinth(['data-model', verb, String(id), ...rest], as(key));
  const local = async (name: string, content: string) => {
    const path = join(home(), name);
    await writeFile(path, content);
    return path;
  };
  const ok = (result: { code: number; stderr: string }) => expect(result.code, result.stderr).toBe(0);
  const builds = (id: number) =>
    ctx()
      .server.store.db.selectFrom('model_build')
      .select(['branch_name', 'trigger'])
      .where('deployment_id', '=', id)
      .orderBy('id')
      .execute();

  it('section 3: create-branch <name> makes a shared branch', async () => {
    const id = await deployment();
    ok(await dm(id, 'create-branch', ['feature']));
    const list = await dm(id, 'branches', ['--json']);
    expect(JSON.parse(list.stdout).items).toMatchObject([
      { name: 'main', kind: 'shared', isDefault: true },
      { name: 'feature', kind: 'shared', isDefault: false, forkedFrom: 'main' },
    ]);
    const table = await dm(id, 'branches');
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME +KIND +DEFAULT +DEV MODE +ALWAYS ACTIVE +FORKED FROM +HEAD +UPDATED$/);
    expect(table.stdout).toMatch(/\nfeature +shared +false +false +false +main +\d+ /);
  });

  it('section 3: dev-mode on a shared branch forks a new dev-… branch each time', async () => {
    const id = await deployment();
    const first = await dm(id, 'dev-mode', ['main']);
    ok(first);
    expect(first.stdout).toMatch(/^dev-[0-9a-f]{10}\n$/);
    const second = await dm(id, 'dev-mode', ['main', '--json']);
    const body = JSON.parse(second.stdout);
    expect(body).toMatchObject({ active: true, forkedFrom: 'main', branchName: expect.stringMatching(/^dev-/) });
    expect(body.branchName).not.toBe(first.stdout.trim());
    const status = await dm(id, 'dev-mode-status', ['--json']);
    expect(JSON.parse(status.stdout)).toEqual({ active: true, branchName: body.branchName, forkedFrom: 'main' });
  });

  it('section 3: put / delete / rename are accepted on a dev-… branch and rejected on any other branch', async () => {
    const id = await deployment();
    const file = await local('orders.yml', 'cubes:\n  - name: orders\n');
    for (const branch of ['main']) {
      const put = await dm(id, 'put', ['model/a.yml', '--file', file, '--branch', branch]);
      expect(put.code).toBe(1);
      expect(put.stderr).toContain(notDev(id, branch));
      expect((await dm(id, 'delete', ['model/a.yml', '--branch', branch])).stderr).toContain(notDev(id, branch));
      expect((await dm(id, 'rename', ['model/a.yml', 'model/b.yml', '--branch', branch])).stderr).toContain(notDev(id, branch));
    }
    const dev = (await dm(id, 'dev-mode', ['main'])).stdout.trim();
    ok(await dm(id, 'put', ['model/cubes/orders.yml', '--file', file]));
    const got = await dm(id, 'get', ['model/cubes/orders.yml']);
    expect(got.stdout).toBe('cubes:\n  - name: orders\n');
    ok(await dm(id, 'rename', ['model/cubes/orders.yml', 'model/cubes/sales.yml']));
    const list = await dm(id, 'list');
    expect(list.stdout).toMatch(/^PATH +SIZE +HASH\nmodel\/cubes\/sales.yml +24 +[0-9a-f]{64}\n$/);
    const listJson = JSON.parse((await dm(id, 'list', ['--json'])).stdout);
    expect(listJson).toMatchObject({ branchName: dev, items: [{ path: 'model/cubes/sales.yml', size: 24 }] });
    ok(await dm(id, 'delete', ['model/cubes/sales.yml', '--branch', dev]));
    expect((await dm(id, 'list')).stderr).toBe('No results\n');
  });

  it("section 3: commit pushes a dev branch's edits to the shared branch it was forked from", async () => {
    const id = await deployment();
    ok(await dm(id, 'create-branch', ['feature']));
    const dev = (await dm(id, 'dev-mode', ['feature'])).stdout.trim();
    ok(await dm(id, 'put', ['model/cubes/orders.yml', '--file', await local('o.yml', 'cubes: []\n')]));
    const commit = await dm(id, 'commit', ['-m', 'Add orders', '--json']);
    ok(commit);
    expect(JSON.parse(commit.stdout)).toMatchObject({
      branchName: 'feature',
      sourceBranch: dev,
      changed: true,
      buildId: expect.any(Number),
    });
    expect((await dm(id, 'get', ['model/cubes/orders.yml', '--branch', 'feature'])).stdout).toBe('cubes: []\n');
    const log = await dm(id, 'log', ['--branch', 'feature']);
    expect(log.stdout).toMatch(/^ID +MESSAGE +AUTHOR +CREATED\n\d+ +Add orders +apiKey:\d+ /);
    expect((await dm(id, 'diff', ['--branch', 'feature'])).stdout).toBe('CHANGE  PATH\nadded   model/cubes/orders.yml\n');
    expect((await builds(id)).map((b) => [b.branch_name, b.trigger])).toContainEqual(['feature', 'commit']);
  });

  it('section 3: exit-dev-mode closes the session; commands that omit the branch target the deploy branch again', async () => {
    const id = await deployment();
    const dev = (await dm(id, 'dev-mode', ['main'])).stdout.trim();
    expect(JSON.parse((await dm(id, 'list', ['--json'])).stdout).branchName).toBe(dev);
    const exit = await dm(id, 'exit-dev-mode');
    ok(exit);
    expect(exit.stderr).toBe(`Left dev mode on ${dev}\n`);
    expect(JSON.parse((await dm(id, 'list', ['--json'])).stdout).branchName).toBe('main');
    expect(JSON.parse((await dm(id, 'dev-mode-status', ['--json'])).stdout)).toEqual({ active: false, branchName: null, forkedFrom: null });
    expect((await dm(id, 'put', ['model/a.yml', '--file', await local('a.yml', 'a')])).stderr).toContain(notDev(id, 'main'));
  });

  it('section 3: delete-branch removes a personal dev branch (non-empty branch name)', async () => {
    const id = await deployment();
    const dev = (await dm(id, 'dev-mode', ['main'])).stdout.trim();
    const removed = await dm(id, 'delete-branch', [dev, '--json']);
    ok(removed);
    expect(JSON.parse(removed.stdout)).toEqual({ branchName: dev, deleted: true });
    expect(JSON.parse((await dm(id, 'branches', ['--json'])).stdout).items.map((b: { name: string }) => b.name)).toEqual(['main']);
    const empty = await dm(id, 'delete-branch', ['']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('error: The branch name must not be empty');
    const upstream = await dm(id, 'delete-branch', ['main', '--remove-on-upstream']);
    expect(upstream.stderr).toContain(`Deployment ${id} is not connected to a Git repository; there is no upstream branch to remove`);
  });

  it('section 3: merge-to-default merges into the deploy branch, rebuilds production and deletes the branch unless --keep-branch', async () => {
    const id = await deployment();
    for (const name of ['one', 'two']) {
      ok(await dm(id, 'create-branch', [name]));
      ok(await dm(id, 'dev-mode', [name]));
      ok(await dm(id, 'put', [`model/${name}.yml`, '--file', await local(`${name}.yml`, cube(name))]));
      ok(await dm(id, 'commit', ['-m', name]));
    }
    ok(await dm(id, 'exit-dev-mode'));
    const kept = await dm(id, 'merge-to-default', ['--branch', 'one', '--keep-branch', '-m', 'Ship one', '--json']);
    expect(JSON.parse(kept.stdout)).toMatchObject({ branchName: 'main', sourceBranch: 'one', changed: true, deletedBranch: false });
    const gone = await dm(id, 'merge-to-default', ['--branch', 'two', '--json']);
    expect(JSON.parse(gone.stdout)).toMatchObject({ branchName: 'main', sourceBranch: 'two', changed: true, deletedBranch: true });
    const shared = JSON.parse((await dm(id, 'branches', ['--json'])).stdout)
      .items.filter((b: { kind: string }) => b.kind === 'shared')
      .map((b: { name: string }) => b.name);
    expect(shared).toEqual(['main', 'one']);
    expect(JSON.parse((await dm(id, 'list', ['--json'])).stdout).items.map((i: { path: string }) => i.path)).toEqual([
      'model/one.yml',
      'model/two.yml',
    ]);
    // Production is rebuilt: each merge queued a build of the deploy branch's new head.
    const production = (await builds(id)).filter((b) => b.branch_name === 'main').map((b) => b.trigger);
    expect(production).toEqual(['create-branch', 'merge-to-default', 'merge-to-default']);
    await ctx().server.jobs.runUntilIdle();
    const status = await plinth(['deployments', 'build-status', String(id), '--json'], as(ctx().admin.apiKey));
    const head = JSON.parse((await dm(id, 'list', ['--json'])).stdout).commitId;
    expect(JSON.parse(status.stdout)).toMatchObject({
      branchName: 'main',
      status: 'built',
      commitId: head,
      cubesCount: 2,
      trigger: 'merge-to-default',
    });
  });

  it('section 3: enable-branch makes a shared branch’s staging environment always active', async () => {
    const id = await deployment();
    ok(await dm(id, 'create-branch', ['staging']));
    const enabled = await dm(id, 'enable-branch', ['staging', '--json']);
    expect(JSON.parse(enabled.stdout)).toMatchObject({ name: 'staging', alwaysActive: true });
    const dev = (await dm(id, 'dev-mode', ['staging'])).stdout.trim();
    expect((await dm(id, 'enable-branch', [dev])).code).toBe(1);
  });

  it('section 3: disable-branch makes it active only while viewed again', async () => {
    const id = await deployment();
    ok(await dm(id, 'create-branch', ['staging']));
    ok(await dm(id, 'enable-branch', ['staging']));
    const disabled = await dm(id, 'disable-branch', ['staging']);
    expect(disabled.stdout).toMatch(/Always active +false/);
  });

  it('section 3: create-branch --dev-mode points the session at the new branch without a fork; writes are rejected; build status says dev_mode', async () => {
    const id = await deployment();
    ok(await dm(id, 'create-branch', ['preview', '--dev-mode']));
    expect(JSON.parse((await dm(id, 'dev-mode-status', ['--json'])).stdout)).toEqual({
      active: true,
      branchName: 'preview',
      forkedFrom: 'main',
    });
    const names = JSON.parse((await dm(id, 'branches', ['--json'])).stdout).items.map((b: { name: string }) => b.name);
    expect(names).toEqual(['main', 'preview']);
    const put = await dm(id, 'put', ['model/a.yml', '--file', await local('a.yml', 'a'), '--branch', '']);
    expect(put.stderr).toContain(notDev(id, 'preview'));
    const status = await plinth(['deployments', 'build-status', String(id), '--branch', 'preview', '--json'], as(ctx().admin.apiKey));
    expect(JSON.parse(status.stdout)).toMatchObject({ branchName: 'preview', status: 'dev_mode', buildId: null });
    // Running dev-mode on it forks a writable branch.
    const fork = (await dm(id, 'dev-mode', ['preview'])).stdout.trim();
    expect(fork).toMatch(/^dev-/);
    ok(await dm(id, 'put', ['model/a.yml', '--file', await local('a.yml', 'a')]));
  });

  it('section 3: dev mode is per credential; two credentials never see each other’s dev branches or edits', async () => {
    const id = await deployment();
    const other = (await ctx().addUser('admin')).apiKey;
    const mine = (await dm(id, 'dev-mode', ['main'])).stdout.trim();
    const theirs = (await dm(id, 'dev-mode', ['main'], other)).stdout.trim();
    ok(await dm(id, 'put', ['model/mine.yml', '--file', await local('m.yml', 'mine')]));
    expect(JSON.parse((await dm(id, 'list', ['--json'], other)).stdout)).toMatchObject({ branchName: theirs, items: [] });
    expect((await dm(id, 'get', ['model/mine.yml', '--branch', mine], other)).stderr).toContain(`Branch ${mine} not found`);
    const seen = JSON.parse((await dm(id, 'branches', ['--json'], other)).stdout).items.map((b: { name: string }) => b.name);
    expect(seen).toEqual(['main', theirs]);
  });

  it("rule 4: dev-mode rejects an empty branch; put and commit accept --branch '' and act on the session", async () => {
    const id = await deployment();
    const empty = await dm(id, 'dev-mode', ['']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('error: The branch to enter dev mode on must not be empty');
    const dev = (await dm(id, 'dev-mode', ['main'])).stdout.trim();
    const put = await dm(id, 'put', ['model/a.yml', '--file', await local('a.yml', 'a: 1\n'), '--branch', '', '--json']);
    expect(JSON.parse(put.stdout)).toMatchObject({ branchName: dev, changed: true });
    const same = await dm(id, 'put', ['model/a.yml', '--file', await local('a.yml', 'a: 1\n'), '--branch', '', '--json']);
    expect(JSON.parse(same.stdout)).toMatchObject({ changed: false });
    const commit = await dm(id, 'commit', ['--branch', '', '-m', 'a', '--json']);
    expect(JSON.parse(commit.stdout)).toMatchObject({ branchName: 'main', sourceBranch: dev, changed: true });
  });

  it('conflicts name the files and exit 1; pull, merge and file-hashes', async () => {
    const id = await deployment();
    const other = (await ctx().addUser('admin')).apiKey;
    ok(await dm(id, 'dev-mode', ['main']));
    ok(await dm(id, 'dev-mode', ['main'], other));
    ok(await dm(id, 'put', ['model/x.yml', '--file', await local('x1.yml', 'one')]));
    ok(await dm(id, 'put', ['model/x.yml', '--file', await local('x2.yml', 'two')], other));
    ok(await dm(id, 'commit', ['-m', 'one']));
    const refused = await dm(id, 'commit', ['-m', 'two'], other);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error: Conflicting changes to model/x.yml on branch main (HTTP 409)');
    ok(await dm(id, 'put', ['model/y.yml', '--file', await local('y.yml', 'y')]));
    const pull = await dm(id, 'pull', ['--json'], other);
    expect(pull.code).toBe(1);
    const hashes = await dm(id, 'file-hashes');
    expect(hashes.stdout).toMatch(/^PATH +HASH\nmodel\/x.yml +[0-9a-f]{64}\nmodel\/y.yml +[0-9a-f]{64}\n$/);
    ok(await dm(id, 'exit-dev-mode'));
    ok(await dm(id, 'create-branch', ['a']));
    ok(await dm(id, 'create-branch', ['b']));
    const merged = await dm(id, 'merge', ['a', 'b', '-m', 'sync', '--json']);
    expect(JSON.parse(merged.stdout)).toMatchObject({ branchName: 'b', sourceBranch: 'a', changed: false });
  });
});
