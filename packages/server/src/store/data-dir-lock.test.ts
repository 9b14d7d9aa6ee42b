import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT } from '../test-support/built.js';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from './data-dir-lock.js';

const LOCK_MODULE = BUILT.serverModule('store/data-dir-lock.js');

/**
 * A process that waits for `go` to exist, tries to lock `dir`, prints `won <pid>` or the refusal,
 * then holds whatever it got until `done` exists and exits normally.
 */
function locker(dir: string, go: string, done: string) {
  const script = `
    import { existsSync } from 'node:fs';
    import { lockDataDir } from ${JSON.stringify(LOCK_MODULE)};
    const wait = async (file) => { while (!existsSync(file)) await new Promise((r) => setTimeout(r, 5)); };
    await wait(${JSON.stringify(go)});
    try { lockDataDir(${JSON.stringify(dir)}); console.log('won ' + process.pid); }
    catch (error) { console.log('lost ' + error.message); }
    await wait(${JSON.stringify(done)});
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  const said = new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve(output.trim());
    });
    child.on('exit', () => resolve(`${output}${errors}`.trim()));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, said, exited };
}

/** The pid of a process that has exited: what a crashed server leaves in its lock file. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

/** Issue 10, security 2: one process per embedded data directory. */
describe('data directory lock', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const paths = () => ({ go: join(dir, 'go'), done: join(dir, 'done'), lock: join(dir, LOCK_FILE) });

  it.each([
    ['on a free directory', false],
    ['on a stale lock', true],
  ])('%s, of processes starting together exactly one wins; the others are told who holds it; exit releases it', async (_, stale) => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-lock-'));
    const { go, done, lock } = paths();
    if (stale) writeFileSync(lock, `${await deadPid()}\n`);
    const lockers = Array.from({ length: 4 }, () => locker(dir, go, done));
    writeFileSync(go, '');
    const said = await Promise.all(lockers.map((l) => l.said));
    const winners = said.filter((line) => line.startsWith('won '));
    expect(winners, said.join('\n')).toHaveLength(1);
    const winner = Number(winners[0]!.slice(4));
    expect(readFileSync(lock, 'utf8')).toBe(`${winner}\n`);
    for (const line of said.filter((l) => !l.startsWith('won '))) {
      expect(line).toMatch(
        new RegExp(`^lost The data directory ${dir} is in use by (process ${winner}|another process) \\(lock file ${lock}\\)`),
      );
    }
    writeFileSync(done, '');
    expect(await Promise.all(lockers.map((l) => l.exited))).toEqual([0, 0, 0, 0]);
    expect(existsSync(lock)).toBe(false);
  });

  it('a stale lock of a dead process is taken over', async () => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-lock-'));
    const { go, done, lock } = paths();
    writeFileSync(lock, `${await deadPid()}\n`);
    writeFileSync(go, '');
    const taker = locker(dir, go, done);
    const said = await taker.said;
    expect(said).toBe(`won ${taker.child.pid}`);
    expect(readFileSync(lock, 'utf8')).toBe(`${taker.child.pid}\n`);
    writeFileSync(done, '');
    expect(await taker.exited).toBe(0);
    expect(existsSync(lock)).toBe(false);
  });

  it('in one process: a second lock is refused naming this pid, and a lock naming this pid that it does not hold is stale', () => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-lock-'));
    const { lock } = paths();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(new DataDirLockedError(dir, process.pid));
    release();
    expect(existsSync(lock)).toBe(false);
    // A container restarted after a crash runs the server as the same pid (often 1) again.
    writeFileSync(lock, `${process.pid}\n`);
    const again = lockDataDir(dir);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    again();
  });

  it('a lock held by a live process is never taken over, also when it is empty', async () => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-lock-'));
    const { lock } = paths();
    writeFileSync(lock, `${process.ppid}\n`);
    expect(() => lockDataDir(dir)).toThrow(new DataDirLockedError(dir, process.ppid));
    writeFileSync(lock, '');
    expect(() => lockDataDir(dir)).toThrow(new DataDirLockedError(dir, null));
    expect(readFileSync(lock, 'utf8')).toBe('');
  });
});
