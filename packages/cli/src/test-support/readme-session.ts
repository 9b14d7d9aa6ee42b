import { execFile, spawn } from 'node:child_process';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { getFileInfo } from 'prettier';
import type { ReadmeBlock } from './readme-blocks.js';
import { serverSettings } from './readme-blocks.js';

/** The address the README uses; the test's server listens on a port of its own instead. */
export const README_URL = 'http://127.0.0.1:4000';

const CHECKOUT = fileURLToPath(new URL('../../../../', import.meta.url));
const CLONED = ['node_modules', 'packages', 'package.json'];

/**
 * A directory that looks like a fresh clone after `npm install`: the checkout's node_modules (its
 * .bin links run the build global-setup made) and packages, so `$PWD/node_modules/.bin`,
 * `packages/cli/install.sh` and `./.plinth/bootstrap.json` mean what they mean in a clone, while
 * every file a block writes lands here. Beside it an empty home.
 */
export async function cloneLike(dir: string): Promise<{ work: string; home: string }> {
  const work = join(dir, 'work');
  const home = join(dir, 'home');
  await mkdir(work);
  await mkdir(home);
  for (const entry of CLONED) await symlink(join(CHECKOUT, entry), join(work, entry));
  return { work, home };
}

/**
 * What the blocks left at the top of the clone that git would list as untracked or that
 * `prettier --check .` (in `npm test`) would check: a newcomer who runs the README in the checkout
 * and then `npm test` must see it pass.
 */
export async function leftUnignored(work: string): Promise<string[]> {
  const entries = (await readdir(work, { withFileTypes: true })).filter((entry) => !CLONED.includes(entry.name));
  const unignored: string[] = [];
  for (const entry of entries) {
    const path = entry.isDirectory() ? `${entry.name}/` : entry.name;
    const byGit = await new Promise<boolean>((resolve) =>
      execFile('git', ['check-ignore', '--no-index', '-q', path], { cwd: CHECKOUT }, (error) => resolve(!error)),
    );
    // A file in a directory that .prettierignore names is ignored with it.
    const info = await getFileInfo(join(CHECKOUT, entry.isDirectory() ? `${path}any.json` : path), {
      ignorePath: join(CHECKOUT, '.prettierignore'),
    });
    if (!byGit || (!info.ignored && info.inferredParser)) unignored.push(path);
  }
  return unignored;
}

/** What the session asks of the test through its fd 3: `start NAME=value…`, `stop`, `start-again`. */
export type ServerRequest = { kind: 'start'; settings: Record<string, string> } | { kind: 'stop' } | { kind: 'start-again' };

/**
 * One shell session for the whole README, as a newcomer's terminal is: variables, functions and
 * the working directory carry from block to block. Each block is announced on the output, so a
 * failure names its block; the test's server is driven through fd 3.
 */
export function sessionScript(blocks: ReadmeBlock[], url: string): string {
  const lines = [
    'exec 2>&1',
    'readme_server() { printf "%s\\n" "$*" >&3; read -r readme_reply <&3; [ "$readme_reply" = ok ]; }',
    // curl -s exits 0 on a 4xx or 5xx: an example that the server refuses must fail the block.
    'curl() { command curl --fail-with-body "$@"; }',
  ];
  for (const block of blocks) {
    if (block.directive === 'skip') continue;
    lines.push(`printf '\\n@@readme-block ${block.line}@@\\n'`);
    if (block.directive === 'server') {
      const settings = Object.entries(serverSettings(block)).map(([name, value]) => `${name}=${value}`);
      lines.push(['readme_server start', ...settings].join(' '));
      continue;
    }
    if (block.directive === 'stopped') lines.push('readme_server stop');
    lines.push(block.body.replaceAll(README_URL, url));
    if (block.directive === 'stopped') lines.push('readme_server start-again');
  }
  lines.push(`printf '\\n@@readme-end@@\\nTOKEN=%s\\n' "\${TOKEN:-}"`);
  return `${lines.join('\n')}\n`;
}

export interface SessionResult {
  code: number | null;
  output: string;
}

/**
 * Runs the script with `sh -e -x` in its own process group, answering its server requests with
 * `serve` (true: done). After `limitMs` the whole group is killed, so a block that hangs (a
 * `--wait` on a build that never ends) fails the test with its output instead of timing it out.
 */
export function runSession(
  script: string,
  options: { cwd: string; env: Record<string, string>; limitMs: number; serve: (request: ServerRequest) => Promise<boolean> },
): Promise<SessionResult> {
  const child = spawn('sh', ['-e', '-x', '-c', script], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const control = child.stdio[3] as Duplex;
  let pending = '';
  let queue = Promise.resolve();
  control.on('data', (chunk: Buffer) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const request = parseRequest(pending.slice(0, end));
      pending = pending.slice(end + 1);
      queue = queue.then(async () => {
        const ok = await options.serve(request).catch((error: unknown) => {
          output += `\n@@readme-test: the server did not ${request.kind}: ${String(error)}@@\n`;
          return false;
        });
        control.write(ok ? 'ok\n' : 'failed\n');
      });
    }
  });
  control.on('error', () => undefined);
  const limit = setTimeout(() => {
    output += `\n@@readme-test: killed after ${options.limitMs} ms@@\n`;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group ended meanwhile
    }
  }, options.limitMs);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(limit);
      resolve({ code, output });
    }),
  );
}

function parseRequest(line: string): ServerRequest {
  const [verb, ...words] = line.trim().split(/\s+/);
  if (verb === 'stop' || verb === 'start-again') return { kind: verb };
  const settings = Object.fromEntries(words.map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]));
  return { kind: 'start', settings };
}

/** Where the session stopped: the block that was running, and what it and the server printed. */
export function failureReport(blocks: ReadmeBlock[], result: SessionResult, serverOutput: string): string {
  const markers = [...result.output.matchAll(/@@readme-block (\d+)@@\n/g)];
  const last = markers.at(-1);
  const block = blocks.find((candidate) => candidate.line === Number(last?.[1]));
  const since = last ? result.output.slice(last.index! + last[0].length) : result.output;
  return [
    block
      ? `README line ${block.line} (${block.heading}) failed, exit code ${result.code}:`
      : `the session failed before a block, exit code ${result.code}:`,
    block?.body ?? '',
    '--- its output ---',
    since.slice(-6000),
    '--- the server ---',
    serverOutput.slice(-3000),
  ].join('\n');
}
