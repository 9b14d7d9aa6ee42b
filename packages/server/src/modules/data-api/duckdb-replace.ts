import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DuckDBWarehouse } from '@plinth/semantic';

/**
 * Writes a DuckDB file that server processes may be reading. Readers hold it read-only, and DuckDB
 * opens a file read-write only when no other process holds it at all: writing it in place would
 * have to stop every server first. So the writer fills a draft beside it, a copy of the file (its
 * write-ahead log too) when there is one, and renames the finished draft over it, which is atomic:
 * a reader opens the old file or the new one, never half of one, and a failed write leaves the old
 * file as it was. Readers already holding the old file see the new one from their next query
 * (DuckDBFile). Two writers of one file in different processes do not corrupt it either: the last
 * rename stands, without the other's changes; within a process, writes of a file are serialized.
 * Tools that write an account's DuckDB files must do the same: write elsewhere, rename into place.
 */
export async function replaceDuckDBFile(path: string, fill: (warehouse: DuckDBWarehouse) => Promise<unknown>): Promise<void> {
  const previous = writing.get(path) ?? Promise.resolve();
  const done = previous.then(() => writeDraft(path, fill));
  const settled = done.catch(() => undefined);
  writing.set(path, settled);
  void settled.then(() => {
    if (writing.get(path) === settled) writing.delete(path);
  });
  return done;
}

/** The write of each file under way in this process, which the next write of it waits for. */
const writing = new Map<string, Promise<void>>();

async function writeDraft(path: string, fill: (warehouse: DuckDBWarehouse) => Promise<unknown>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  // Beside the file, so the rename stays on one file system; a crash leaves only a draft behind.
  const draft = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.draft`;
  try {
    await copyIfPresent(path, draft);
    await copyIfPresent(`${path}.wal`, `${draft}.wal`);
    const warehouse = await DuckDBWarehouse.open({ path: draft });
    try {
      await fill(warehouse);
      // Everything into the file itself: readers of the renamed file must not need a log beside it.
      await warehouse.exec('CHECKPOINT');
    } finally {
      await warehouse.close();
    }
    // A log left by a process that wrote the old file in place would be replayed over the new one.
    await rm(`${path}.wal`, { force: true });
    await rename(draft, path);
  } finally {
    await Promise.all([draft, `${draft}.wal`, `${draft}.tmp`].map((leftover) => rm(leftover, { force: true, recursive: true })));
  }
}

async function copyIfPresent(from: string, to: string): Promise<void> {
  try {
    await copyFile(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
