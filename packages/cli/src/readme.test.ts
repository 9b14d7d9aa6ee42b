import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, storeKinds } from '@plinth/server/test-support';
import { readmeBlocks, type ReadmeBlock } from './test-support/readme-blocks.js';
import { ReadmeServer } from './test-support/readme-server.js';
import { cloneLike, failureReport, leftUnignored, README_URL, runSession, sessionScript } from './test-support/readme-session.js';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const markdown = readFileSync(README, 'utf8');

/** Parsed once for every test below; a README that cannot be parsed fails the first test, naming why. */
let parsed: ReadmeBlock[] | Error;
try {
  parsed = readmeBlocks(markdown);
} catch (error) {
  parsed = error as Error;
}
const blocks = () => {
  if (parsed instanceof Error) throw parsed;
  return parsed;
};

describe('README.md', () => {
  it('closes every code fence and begins with npm install && npm start, then npm install && npm test', () => {
    const [start, test] = blocks();
    expect(start?.body.trim()).toBe('npm install && npm start');
    expect(test?.body.trim()).toBe('npm install && npm test');
    expect(markdown.indexOf('```')).toBe(markdown.indexOf('```sh\nnpm install && npm start'));
  });

  // Each block the session does not run is listed here, with the reason its marker gives.
  for (const block of parsed instanceof Error ? [] : parsed.filter((b) => b.directive === 'skip')) {
    it.skip(`not run: README line ${block.line} under "${block.heading}": ${block.reason}`, () => undefined);
  }
});

/** The PATH of a newcomer's shell: npm and npx put node_modules/.bin on the test's own. */
const systemPath = () =>
  process.env
    .PATH!.split(':')
    .filter((dir) => !dir.includes('node_modules'))
    .join(':');

describe.each(storeKinds)('README: every shell block runs in order, in one shell, on a fresh server [%s]', (kind) => {
  let dir = '';
  let server: ReadmeServer | undefined;
  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('from npm start to shell completion, with an empty home directory; then the @cubejs-client/core example', async () => {
    dir = await mkdtemp(join(tmpdir(), 'plinth-readme-'));
    const { work, home } = await cloneLike(dir);
    server = await ReadmeServer.create(kind, await freePort(), join(work, '.plinth'), await freePort());
    const env = {
      PATH: systemPath(),
      HOME: home,
      // Each command would otherwise start a detached process to report or check for updates.
      PLINTH_NO_TELEMETRY: '1',
      PLINTH_NO_UPDATE_CHECK: '1',
      ...server.storeEnv,
    };
    const result = await runSession(sessionScript(blocks(), server.url), {
      cwd: work,
      env,
      limitMs: 150_000,
      serve: (request) => server!.serve(request),
    });
    if (result.code !== 0) throw new Error(failureReport(blocks(), result, server.output));
    // A command that fails before `&&` does not stop `sh -e`: the client's error line still shows it.
    expect(result.output).not.toMatch(/^error:/m);

    // A newcomer runs the blocks in the checkout: what they leave there must not fail `npm test`.
    expect(await leftUnignored(work)).toEqual([]);

    // The shell completion and the login of the CLI section landed in the empty home.
    expect((await stat(join(home, '.local/share/bash-completion/completions/plinth'))).size).toBeGreaterThan(100);
    expect(await readFile(join(home, '.config/plinth/config.toml'), 'utf8')).toMatch(/current_context = "127\.0\.0\.1-admin"/);

    // The client example reads, with the token the data API block minted, the rows curl reads.
    const token = /^TOKEN=(.+)$/m.exec(result.output)?.[1];
    expect(token).toBeTruthy();
    const query = encodeURIComponent(JSON.stringify({ measures: ['orders.count'], dimensions: ['orders.status'] }));
    const answer = await fetch(`${server.url}/d/1/cubejs-api/v1/load?query=${query}`, { headers: { Authorization: token! } });
    const rows = ((await answer.json()) as { data: Record<string, string>[] }).data;
    expect(rows.length).toBeGreaterThan(1);
    const printed = await runClientExample(dir, server.url, { ...env, TOKEN: token! });
    for (const row of rows) {
      expect(printed).toMatch(new RegExp(`'${row['orders.status']}'\\s*│\\s*'${row['orders.count']}'`));
    }
  }, 240_000);
});

/** The README's `js` block, importing the @cubejs-client/core this checkout installed, run by node. */
async function runClientExample(dir: string, url: string, env: Record<string, string>): Promise<string> {
  const [example] = [...markdown.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const client = pathToFileURL(createRequire(import.meta.url).resolve('@cubejs-client/core')).href.replace(/[^/]+$/, 'src/index.js');
  const file = join(dir, 'example.mjs');
  await writeFile(file, example!.replaceAll(README_URL, url).replace("'@cubejs-client/core'", `'${client}'`));
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [file], { env }, (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout))),
  );
}
