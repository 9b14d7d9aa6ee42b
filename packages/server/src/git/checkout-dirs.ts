import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where checkouts live: one folder per server process under the machine's temporary directory,
 * named by its pid, so a process that died mid-clone (killed, out of memory) leaves a folder the
 * next start can recognise as nobody's and remove, without touching a live process's checkouts.
 */
export function checkoutsRoot(base = tmpdir()): string {
  return join(base, 'plinth-checkouts');
}

/** A fresh, empty folder for one checkout of this process. */
export async function newCheckoutDir(base = tmpdir()): Promise<string> {
  const mine = join(checkoutsRoot(base), String(process.pid));
  await mkdir(mine, { recursive: true, mode: 0o700 });
  return mkdtemp(join(mine, 'checkout-'));
}

/** Removes the checkouts of processes that are gone; answers how many folders it removed. */
export async function removeDeadCheckouts(base = tmpdir()): Promise<number> {
  const entries = await readdir(checkoutsRoot(base)).catch(() => [] as string[]);
  let removed = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid || isAlive(Number(entry))) continue;
    await rm(join(checkoutsRoot(base), entry), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's; only ESRCH says there is no such process.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
