import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../server/src/modules/accounts/bootstrap.js';
import { demoOnFirstStart } from '../../server/src/modules/demo/service.js';
import { BUILT } from '../../server/src/test-support/built.js';
import { startTestServer, type TestServer } from '../../server/src/test-support/server.js';
import { storeKinds } from '../../server/src/test-support/stores.js';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
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

/** The fenced `js` blocks of one section of the README. */
function sectionScripts(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  const end = markdown.indexOf('\n## ', start + 1);
  return [...markdown.slice(start, end < 0 ? undefined : end).matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/**
 * A server as `npm start` makes it on an empty store: the account `demo`, its admin key and
 * bootstrap.json, listening, builds running in the background, and the demo deployment built.
 */
async function firstStart(kind: (typeof storeKinds)[number], dir: string) {
  const server = await startTestServer(kind, { PLINTH_TENANT: 'demo', PLINTH_DATA_DIR: join(dir, 'work', '.plinth') });
  const boot = await bootstrap(server.store, server.services, server.config);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  await server.jobs.start();
  const failures: string[] = [];
  const log = {
    info: () => undefined,
    error: (details: object, message: string) => failures.push(`${message} ${JSON.stringify(details)}`),
  };
  const line = await demoOnFirstStart(server.services, { ...boot, baseUrl: url, enabled: true }, log);
  if (!line) throw new Error(`the demo was not built: ${failures.join('; ')}`);
  return { server, url, key: boot.apiKey! };
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

/** `plinth` on PATH runs this checkout's build, brought up to date before the run; an empty home. */
async function plinthOnPath(dir: string) {
  const bin = join(dir, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'plinth'), `#!/bin/sh\nexec "${process.execPath}" "${BUILT.cli}" "$@"\n`);
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

/** For one describe block: a server as the first `npm start` makes it, in a temporary dir with a `work` folder. */
function freshServerPerBlock(kind: (typeof storeKinds)[number], prefix: string) {
  const fresh = { server: undefined as TestServer | undefined, dir: '', url: '', key: '' };
  beforeAll(async () => {
    fresh.dir = await mkdtemp(join(tmpdir(), prefix));
    await mkdir(join(fresh.dir, 'work'));
    Object.assign(fresh, await firstStart(kind, fresh.dir));
  }, 180_000);
  afterAll(async () => {
    await fresh.server?.jobs.stop();
    await fresh.server?.app.close();
    await fresh.server?.store.close();
    if (fresh.dir) await rm(fresh.dir, { recursive: true, force: true });
  });
  return fresh;
}

describe.each(storeKinds)('README: the data model workflow runs as written on a fresh server [%s]', (kind) => {
  const fresh = freshServerPerBlock(kind, 'plinth-readme-model-');

  it('from deploy to build-status --wait, every line succeeds and production serves the merged model', async () => {
    const { server, dir, url, key } = fresh;
    const blocks = sectionBlocks(await readFile(README, 'utf8'), 'Data model workflow');
    expect(blocks).toHaveLength(1);
    const { env } = await plinthOnPath(dir);
    const result = await sh(blocks.join('\n').replaceAll(README_URL, url), join(dir, 'work'), { ...env, KEY: key });
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code, result.stderr).toBe(0);

    // The status dimension added in dev mode reached production through staging, and production built it.
    const db = server!.store.db;
    const demo = await db.selectFrom('account').select('id').where('name', '=', 'demo').executeTakeFirstOrThrow();
    const main = await server!.services.dataModel.branch(demo.id, 2, 'main');
    const files = await server!.services.dataModel.filesAt(demo.id, main.head_commit_id);
    expect(files.get('model/cubes/orders.yml')).toContain('name: status');
    const builds = await db.selectFrom('model_build').select(['branch_name', 'commit_id', 'status', 'cubes_count']).orderBy('id').execute();
    expect(builds.at(-1)).toEqual({ branch_name: 'main', commit_id: main.head_commit_id, status: 'built', cubes_count: 1 });
  }, 300_000);
});

describe.each(storeKinds)('README: the data API examples run as written on the demo of a fresh server [%s]', (kind) => {
  const fresh = freshServerPerBlock(kind, 'plinth-readme-data-');

  it('the curl lines read the demo: rows, the multi shape, SQL and meta; then the @cubejs-client/core example prints the same rows', async () => {
    const { dir, url, key } = fresh;
    const markdown = await readFile(README, 'utf8');
    const blocks = sectionBlocks(markdown, 'Data API');
    expect(blocks).toHaveLength(1);
    const { env } = await plinthOnPath(dir);
    // Each answer on a line of its own, so the test can read them one by one.
    const script = `curl() { command curl "$@"; echo; }\n${blocks[0]!.replaceAll(README_URL, url)}\nprintf '\\nTOKEN=%s\\n' "$TOKEN"`;
    const result = await sh(script, join(dir, 'work'), { ...env, KEY: key });
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code, result.stderr).toBe(0);

    const lines = result.stdout.split('\n');
    expect(lines.find((line) => /^1 +Demo /.test(line))).toBeDefined();
    const answers = lines.flatMap((line) => {
      try {
        return line.startsWith('{') ? [JSON.parse(line)] : [];
      } catch {
        return []; // the meta answer, cut at 300 characters by head
      }
    });
    const [byStatus, monthly, sql] = answers;
    expect(byStatus.data.length).toBeGreaterThan(1);
    expect(byStatus.data.map((row: Record<string, string>) => row['orders.status'])).toContain('completed');
    expect(monthly).toMatchObject({ queryType: 'regularQuery', results: [{ data: expect.any(Array) }] });
    expect(monthly.results[0].data).toHaveLength(3);
    expect(sql.sql.sql[0]).toMatch(/^SELECT/i);
    expect(result.stdout).toContain('{"cubes":[');

    // The client example, with the package this checkout installed and the token the block minted.
    const [example] = sectionScripts(markdown, 'Data API');
    const client = pathToFileURL(createRequire(import.meta.url).resolve('@cubejs-client/core')).href.replace(/[^/]+$/, 'src/index.js');
    const file = join(dir, 'work', 'example.mjs');
    await writeFile(file, example!.replaceAll(README_URL, url).replace("'@cubejs-client/core'", `'${client}'`));
    const token = /^TOKEN=(.*)$/m.exec(result.stdout)![1]!;
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [file], { env: { ...env, TOKEN: token } }, (error, stdout, stderr) =>
        resolve({ code: error ? 1 : 0, stdout, stderr }),
      ),
    );
    expect(run.code, run.stderr).toBe(0);
    for (const row of byStatus.data as Record<string, string>[]) {
      expect(run.stdout).toMatch(new RegExp(`'${row['orders.status']}'\\s*│\\s*'${row['orders.count']}'`));
    }
  }, 300_000);
});
