import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../server/src/modules/accounts/bootstrap.js';
import { startTestServer, type TestServer } from '../../server/src/test-support/server.js';
import { storeKinds } from '../../server/src/test-support/stores.js';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
/** The address the README uses; the test's server listens on a free port instead. */
const README_URL = 'http://127.0.0.1:4000';

/** The fenced `sh` blocks of one section of the README (`## <heading>`), in the order they appear. */
function sectionBlocks(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no section "${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/**
 * The blocks of the "Command-line client" section, except the install block (it needs a release
 * built): the command lines a newcomer copies, in the order they appear.
 */
export function readmeCliBlocks(markdown: string): string[] {
  return sectionBlocks(markdown, 'Command-line client').filter((block) => !block.includes('install.sh'));
}

function sh(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-e', '-x', '-c', script], { cwd, env, timeout: 240_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** `plinth` on PATH runs this checkout's sources, so the tests never run a stale build; an empty home. */
async function plinthOnPath(dir: string) {
  const bin = join(dir, 'bin');
  await mkdir(bin);
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  await writeFile(join(bin, 'plinth'), `#!/bin/sh\nexec "${process.execPath}" --import "${tsx}" "${MAIN}" "$@"\n`);
  await chmod(join(bin, 'plinth'), 0o755);
  const home = join(dir, 'home');
  await mkdir(home);
  return { home, env: { PATH: `${bin}:${process.env.PATH}`, HOME: home, PLINTH_NO_TELEMETRY: '1', LANG: 'C' } };
}

describe.each(storeKinds)('README: the command-line examples run as written on a fresh store [%s]', (kind) => {
  let server: TestServer | undefined;
  let dir = '';
  let url = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plinth-readme-'));
    // A fresh server as `npm start` makes one: the account `demo`, its admin and bootstrap.json.
    server = await startTestServer(kind, { PLINTH_TENANT: 'demo', PLINTH_DATA_DIR: join(dir, 'work', '.plinth') });
    await bootstrap(server.store, server.services, server.config);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await server?.app.close();
    await server?.store.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('every line of the CLI blocks succeeds, in order, with an empty home directory', async () => {
    const blocks = readmeCliBlocks(await readFile(README, 'utf8'));
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const { home, env } = await plinthOnPath(dir);

    const script = blocks.join('\n').replaceAll(README_URL, url);
    const result = await sh(script, join(dir, 'work'), env);
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code, result.stderr).toBe(0);

    // What the examples did is in the store: e-mail addresses reached the right users.
    const db = server!.store.db;
    const demo = await db.selectFrom('account').select('id').where('name', '=', 'demo').executeTakeFirstOrThrow();
    const users = await db.selectFrom('app_user').select(['id', 'email']).where('account_id', '=', demo.id).execute();
    const idOf = (email: string) => users.find((u) => u.email === email)?.id;
    const members = await db.selectFrom('group_member').select('user_id').execute();
    expect(members.map((m) => m.user_id).sort()).toEqual([idOf('ada@example.com'), idOf('bob@example.com')].sort());
    await expect(server!.services.login.signIn.authenticate(demo.id, 'ada@example.com', 'a long password')).resolves.toBeTruthy();
    // The completion line works on a fresh home.
    expect((await stat(join(home, '.local/share/bash-completion/completions/plinth'))).size).toBeGreaterThan(100);
    // The login line named its context from the host and the user.
    expect(await readFile(join(home, '.config/plinth/config.toml'), 'utf8')).toMatch(/current_context = "127\.0\.0\.1-admin"/);
  }, 300_000);
});

describe.each(storeKinds)('README: the data model workflow runs as written on a fresh server [%s]', (kind) => {
  let server: TestServer | undefined;
  let dir = '';
  let url = '';
  let key = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plinth-readme-model-'));
    await mkdir(join(dir, 'work'));
    server = await startTestServer(kind, { PLINTH_TENANT: 'demo', PLINTH_DATA_DIR: join(dir, 'work', '.plinth') });
    key = (await bootstrap(server.store, server.services, server.config)).apiKey!;
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    // Builds run in the background, as on a server started with npm start.
    await server.jobs.start();
  });
  afterAll(async () => {
    await server?.jobs.stop();
    await server?.app.close();
    await server?.store.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('from deploy to build-status --wait, every line succeeds and production serves the merged model', async () => {
    const blocks = sectionBlocks(await readFile(README, 'utf8'), 'Data model workflow');
    expect(blocks).toHaveLength(1);
    const { env } = await plinthOnPath(dir);
    const result = await sh(blocks.join('\n').replaceAll(README_URL, url), join(dir, 'work'), { ...env, KEY: key });
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code, result.stderr).toBe(0);

    // The status dimension added in dev mode reached production through staging, and production built it.
    const db = server!.store.db;
    const demo = await db.selectFrom('account').select('id').where('name', '=', 'demo').executeTakeFirstOrThrow();
    const main = await server!.services.dataModel.branch(demo.id, 1, 'main');
    const files = await server!.services.dataModel.filesAt(demo.id, main.head_commit_id);
    expect(files.get('model/cubes/orders.yml')).toContain('name: status');
    const builds = await db.selectFrom('model_build').select(['branch_name', 'commit_id', 'status', 'cubes_count']).orderBy('id').execute();
    expect(builds.at(-1)).toEqual({ branch_name: 'main', commit_id: main.head_commit_id, status: 'built', cubes_count: 1 });
  }, 300_000);
});
