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

/**
 * The fenced `sh` blocks of the README's "Command-line client" section, except the install block
 * (it needs a release built): the command lines a newcomer copies, in the order they appear.
 */
export function readmeCliBlocks(markdown: string): string[] {
  const start = markdown.indexOf('\n## Command-line client');
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.filter((block) => !block.includes('install.sh'));
}

function sh(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-e', '-x', '-c', script], { cwd, env, timeout: 240_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
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
    // `plinth` on PATH runs this checkout's sources, so the test never runs a stale build.
    const bin = join(dir, 'bin');
    await mkdir(bin);
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    await writeFile(join(bin, 'plinth'), `#!/bin/sh\nexec "${process.execPath}" --import "${tsx}" "${MAIN}" "$@"\n`);
    await chmod(join(bin, 'plinth'), 0o755);
    const home = join(dir, 'home');
    await mkdir(home);
    const env = { PATH: `${bin}:${process.env.PATH}`, HOME: home, PLINTH_NO_TELEMETRY: '1', LANG: 'C' };

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
