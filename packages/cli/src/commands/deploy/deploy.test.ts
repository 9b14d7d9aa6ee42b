import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';
import { bareCube } from '@plinth/server/test-support';

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'plinth-deploy-test-'));
  await writeFiles(dir, files);
  return dir;
}
async function writeFiles(dir: string, files: Record<string, string>) {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

/** Every request the CLI sends in-process (method and path), by wrapping fetch. */
function recordRequests() {
  const sent: string[] = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    sent.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
    return real(input, init);
  });
  return sent;
}

const five = {
  'model/cubes/orders.yml': bareCube('orders'),
  'model/cubes/users.yml': bareCube('users'),
  'model/cubes/items.yml': bareCube('items'),
  'model/views/sales.yml': 'views: []\n',
  'model/cubes/old.yml': bareCube('old'),
};

describeCli('plinth deploy', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({
    PLINTH_API_URL: ctx().url,
    PLINTH_API_KEY: ctx().admin.apiKey,
    PLINTH_NO_UPDATE_CHECK: '1',
    PLINTH_NO_TELEMETRY: '1',
  });
  const dirs: string[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const newProject = async (files: Record<string, string>) => {
    const dir = await project(files);
    dirs.push(dir);
    return dir;
  };
  const newDeployment = async () => {
    const created = await plinth(['deployments', 'create', '--name', 'd', '--json'], { env: env() });
    return String(JSON.parse(created.stdout).id);
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const result = await plinth(['api', method, path, ...(body ? ['-d', JSON.stringify(body)] : [])], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  };
  const hashes = (id: string, branch = '') => api('GET', `/build/api/v1/deployments/${id}/file-hashes?branch=${branch}`);

  it('a first deploy sends every file under model/ (no dotfiles, nothing outside), then prints the build id', async () => {
    const id = await newDeployment();
    const dir = await newProject({ ...five, 'model/.env': 'SECRET=1\n', 'model/.git/HEAD': 'ref\n', 'README.md': '# not the model\n' });
    const sent = recordRequests();
    const result = await plinth(['deploy', id, '--directory', dir, '-m', 'First'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('5 changed, 0 unchanged, 0 to delete\n');
    expect(result.stderr).toContain(`plinth deployments build-status ${id} --branch main --wait`);
    expect(result.stdout).toMatch(/^\d+\n$/);
    expect(sent.filter((r) => r.startsWith('PUT'))).toHaveLength(5);
    expect(Object.keys((await hashes(id)).hashes).sort()).toEqual(Object.keys(five).sort());
    const log = await api('GET', `/build/api/v1/deployments/${id}/commits`);
    expect(log.items[0].message).toBe('First');
  });

  it('a redeploy with 2 changed and 1 deleted file uploads only those 2, in 5 requests', async () => {
    const id = await newDeployment();
    const dir = await newProject(five);
    expect((await plinth(['deploy', id, '--directory', dir], { env: env() })).code).toBe(0);
    await writeFiles(dir, { 'model/cubes/orders.yml': bareCube('orders', 'v2'), 'model/cubes/users.yml': bareCube('users', 'v2') });
    await rm(join(dir, 'model/cubes/old.yml'));
    const sent = recordRequests();
    const result = await plinth(['deploy', id, '--directory', dir, '--json'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('2 changed, 2 unchanged, 1 to delete\n');
    const base = `/build/api/v1/deployments/${id}`;
    const puts = sent.filter((r) => r.startsWith('PUT'));
    expect(puts).toHaveLength(2);
    expect(sent.filter((r) => !r.startsWith('PUT'))).toEqual([
      `GET ${base}/file-hashes`,
      `POST ${base}/uploads`,
      expect.stringMatching(/\/finish$/),
    ]);
    const finished = JSON.parse(result.stdout);
    expect(finished).toMatchObject({
      branchName: 'main',
      changed: true,
      added: [],
      modified: ['model/cubes/orders.yml', 'model/cubes/users.yml'],
      deleted: ['model/cubes/old.yml'],
      buildId: expect.any(Number),
    });
  });

  it('--keep-missing keeps remote files deleted locally; an unchanged deploy uploads nothing and still builds once', async () => {
    const id = await newDeployment();
    const dir = await newProject(five);
    expect((await plinth(['deploy', id, '--directory', dir], { env: env() })).code).toBe(0);
    await rm(join(dir, 'model/cubes/old.yml'));
    const kept = await plinth(['deploy', id, '--directory', dir, '--keep-missing', '--json'], { env: env() });
    expect(kept.stderr).toBe('0 changed, 4 unchanged, 0 to delete\n');
    expect(JSON.parse(kept.stdout)).toMatchObject({ changed: false, deleted: [] });
    expect((await hashes(id)).hashes).toHaveProperty(['model/cubes/old.yml']);

    const sent = recordRequests();
    const again = await plinth(['deploy', id, '--directory', dir, '--keep-missing'], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(sent.filter((r) => r.startsWith('PUT'))).toEqual([]);
    expect(again.stdout).toMatch(/^\d+\n$/);
    expect(again.stdout).not.toBe(kept.stdout);
    const builds = await ctx()
      .server.store.db.selectFrom('model_build')
      .select('id')
      .where('deployment_id', '=', Number(id))
      .where('trigger', '=', 'deploy')
      .execute();
    expect(builds).toHaveLength(3);
  });

  it("deploys to the open dev-mode branch by default, and --branch '' means the same", async () => {
    const id = await newDeployment();
    const dir = await newProject(five);
    expect((await plinth(['deploy', id, '--directory', dir], { env: env() })).code).toBe(0);
    const dev = (await api('POST', `/build/api/v1/deployments/${id}/dev-mode`, { branch: 'main' })).branchName as string;
    await writeFiles(dir, { 'model/cubes/orders.yml': bareCube('orders', 'dev') });
    const result = await plinth(['deploy', id, '--directory', dir, '--json'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ branchName: dev, modified: ['model/cubes/orders.yml'] });
    await writeFiles(dir, { 'model/cubes/users.yml': bareCube('users', 'dev') });
    const empty = await plinth(['deploy', id, '--directory', dir, '--branch', '', '--json'], { env: env() });
    expect(JSON.parse(empty.stdout)).toMatchObject({ branchName: dev, modified: ['model/cubes/users.yml'] });
    const onMain = await plinth(['deploy', id, '--directory', dir, '--branch', 'main', '--json'], { env: env() });
    expect(JSON.parse(onMain.stdout)).toMatchObject({ branchName: 'main', modified: ['model/cubes/orders.yml', 'model/cubes/users.yml'] });
  });

  it('an interrupted deploy leaves the branch as it was, and its session expires', async () => {
    const id = await newDeployment();
    const dir = await newProject(five);
    expect((await plinth(['deploy', id, '--directory', dir], { env: env() })).code).toBe(0);
    const before = await hashes(id);
    await writeFiles(dir, { 'model/cubes/orders.yml': bareCube('orders', 'v2'), 'model/cubes/users.yml': bareCube('users', 'v2') });
    // The network goes away after the first file: no abort reaches the server either.
    const real = globalThis.fetch;
    let puts = 0;
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      if (init?.method === 'DELETE' || (init?.method === 'PUT' && ++puts > 1)) return Promise.reject(new TypeError('fetch failed'));
      return real(input, init);
    });
    const result = await plinth(['deploy', id, '--directory', dir], { env: env() });
    vi.restoreAllMocks();
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('Cannot reach');
    expect(await hashes(id)).toEqual(before);

    const db = ctx().server.store.db;
    const [open] = await db
      .selectFrom('model_upload')
      .select(['id', 'state'])
      .where('deployment_id', '=', Number(id))
      .where('state', '=', 'open')
      .execute();
    expect(open).toBeDefined();
    await db
      .updateTable('model_upload')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', open!.id)
      .execute();
    const finish = await plinth(['api', 'POST', `/build/api/v1/deployments/${id}/uploads/${open!.id}/finish`], { env: env() });
    expect(finish.code).toBe(1);
    expect(finish.stderr).toContain(`Upload session ${open!.id} not found or expired`);
    expect(await hashes(id)).toEqual(before);
  });

  it('refuses a missing --directory, a folder without model/, and a bad deployment id', async () => {
    const id = await newDeployment();
    const noFlag = await plinth(['deploy', id], { env: env() });
    expect(noFlag.code).toBe(2);
    expect(noFlag.stderr).toContain("required option '--directory <dir>' not specified");
    const empty = await newProject({ 'README.md': 'x' });
    const noModel = await plinth(['deploy', id, '--directory', empty], { env: env() });
    expect(noModel.code).toBe(1);
    expect(noModel.stderr).toContain(`${join(empty, 'model')} is not a directory`);
    const badId = await plinth(['deploy', 'abc', '--directory', empty], { env: env() });
    expect(badId.code).toBe(2);
    const missing = await plinth(['deploy', '99999', '--directory', await newProject(five)], { env: env() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/not found \(HTTP 404\)/);
  });
});
