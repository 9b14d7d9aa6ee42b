import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { configDir } from './config.js';
import type { IO } from './io.js';
import { compareVersions, fetchIndex, releaseSource } from './releases.js';

const DAY_MS = 24 * 3600 * 1000;

interface UpdateCache {
  checkedAt: string;
  latest?: string;
  source: string;
}

export function updateCacheFile(io: IO): string {
  return join(configDir(io), 'update-check.json');
}

async function readCache(file: string): Promise<UpdateCache | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as UpdateCache;
  } catch {
    return undefined;
  }
}

/**
 * After a command: print a notice if the cached check knows a newer release (only on a terminal),
 * and start a background check when the cache is older than a day. Nothing here waits for the
 * network, so the command is never delayed and never fails because of it.
 */
export async function updateNotice(io: IO, version: string): Promise<void> {
  const file = updateCacheFile(io);
  const source = await releaseSource(io.env);
  if (!source) return;
  const cache = await readCache(file);
  if (cache?.latest && cache.source === source && compareVersions(cache.latest, version) > 0 && io.stderrIsTTY) {
    io.stderr.write(`\nA new release of plinth is available: ${version} → ${cache.latest}\nRun \`plinth update\` to install it.\n`);
  }
  const fresh = cache && cache.source === source && Date.now() - Date.parse(cache.checkedAt) < DAY_MS;
  if (!fresh) io.background({ kind: 'update-check', releaseUrl: source, cacheFile: file });
}

/** The background half: fetch the index and cache the latest version (a failure is cached too). */
export async function checkForUpdate(releaseUrl: string, cacheFile: string): Promise<void> {
  let latest: string | undefined;
  try {
    latest = (await fetchIndex(releaseUrl, 5000)).latest;
  } catch {
    latest = undefined;
  }
  await mkdir(dirname(cacheFile), { recursive: true, mode: 0o700 });
  const cache: UpdateCache = { checkedAt: new Date().toISOString(), latest, source: releaseUrl };
  await writeFile(cacheFile, `${JSON.stringify(cache)}\n`, { mode: 0o600 });
}
