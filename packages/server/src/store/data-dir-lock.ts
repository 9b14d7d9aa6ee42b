import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'plinth.lock';

/** The data directory is held by another live process; its message is the one line the process dies with. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number | null,
  ) {
    super(
      `The data directory ${dir} is in use by ${pid === null ? 'another process' : `process ${pid}`} ` +
        `(lock file ${join(dir, LOCK_FILE)}); stop it first, or use PostgreSQL (DATABASE_URL) to run several servers`,
    );
  }
}

/** Locks this process holds, so a lock file naming our own pid is told apart from a stale one left by a previous life of that pid. */
const held = new Set<string>();

/**
 * Issue 10, security 2: the embedded store is one process's alone; two servers on one directory
 * corrupt it. The lock file is created with O_EXCL, so of two processes starting together exactly
 * one creates it. A lock whose process is gone (a crash, a kill -9) is taken over: it is first
 * renamed aside, which only one taker can do, and checked to be the stale lock it read.
 * Returns the release function; the lock is also released when the process exits.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(path)) return holdUntilExit(path);
    const holder = readPid(path);
    if (holder === undefined) continue; // removed meanwhile: try again
    if (holder !== null && isAlive(holder, path)) throw new DataDirLockedError(dir, holder);
    if (holder === null && !olderThan(path)) throw new DataDirLockedError(dir, null); // being written right now
    takeOverStale(path, holder);
  }
  throw new DataDirLockedError(dir, readPid(path) ?? null);
}

function tryCreate(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The pid in a lock file; null if it holds none (yet), undefined if the file is gone. */
function readPid(path: string): number | null | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function isAlive(pid: number, path: string): boolean {
  // Our own pid in a lock we do not hold is a previous life of this pid (a container's pid 1).
  if (pid === process.pid) return held.has(path);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** An empty lock file is a taker between creating and writing it, unless it has been empty a while. */
function olderThan(path: string, ms = 5_000): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > ms;
  } catch {
    return true;
  }
}

function takeOverStale(path: string, stalePid: number | null): void {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // another taker moved it first
    throw error;
  }
  const moved = readPid(aside);
  if (moved !== stalePid) {
    // Between our read and our rename a live process took the lock: give it back (link never overwrites).
    try {
      linkSync(aside, path);
    } catch {
      // someone holds the path again; our copy is of no use either way
    }
  }
  unlinkSync(aside);
}

function holdUntilExit(path: string): () => void {
  held.add(path);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    held.delete(path);
    process.off('exit', release);
    try {
      if (readPid(path) === process.pid) unlinkSync(path);
    } catch {
      // already gone: nothing to release
    }
  };
  process.on('exit', release);
  return release;
}
