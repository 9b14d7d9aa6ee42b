import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { checkoutsRoot, newCheckoutDir, removeDeadCheckouts } from './checkout-dirs.js';

const bases: string[] = [];
afterEach(async () => {
  for (const base of bases.splice(0)) await rm(base, { recursive: true, force: true });
});

/** The pid of a process that has exited: nothing runs under it now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

it("removes at start what a process that died left, and keeps a live process's checkouts", async () => {
  const base = await mkdtemp(join(tmpdir(), 'plinth-checkout-dirs-'));
  bases.push(base);
  const mine = await newCheckoutDir(base);
  await writeFile(join(mine, 'file'), 'x');
  const dead = join(checkoutsRoot(base), String(await deadPid()));
  await mkdir(join(dead, 'checkout-abc'), { recursive: true });
  // The parent of this test is alive, as another server on the machine would be.
  const live = join(checkoutsRoot(base), String(process.ppid));
  await mkdir(live, { recursive: true });
  const unrelated = join(checkoutsRoot(base), 'notes');
  await mkdir(unrelated);

  expect(await removeDeadCheckouts(base)).toBe(1);
  expect([existsSync(dead), existsSync(mine), existsSync(live), existsSync(unrelated)]).toEqual([false, true, true, true]);
  expect(await removeDeadCheckouts(base)).toBe(0);
});

it('nothing to remove on a machine where no checkout was ever made', async () => {
  expect(await removeDeadCheckouts(join(tmpdir(), 'plinth-never-made-here'))).toBe(0);
});
