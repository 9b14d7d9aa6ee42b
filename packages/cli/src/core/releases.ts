import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Releases are npm-style tarballs listed by a JSON index:
 * `{"latest": "0.2.0", "releases": {"0.2.0": {"tarball": "plinth-cli-0.2.0.tgz", "sha256": "…"}}}`.
 * PLINTH_RELEASE_URL names the index, or a directory (http(s):// or file://) holding index.json.
 */

export interface ReleaseIndex {
  latest: string;
  releases: Record<string, { tarball: string; sha256?: string }>;
}

/** The file install.sh writes in the install directory: the release location it installed from. */
export const RECORDED_SOURCE_FILE = 'release-url';

/**
 * The layout install.sh creates, which `update` keeps: `<dir>/versions/<version>/` holds an
 * unpacked release and `<dir>/bin/plinth` links to the current one's `dist/main.js`.
 */
export function installRootOf(env: Record<string, string | undefined>): string | undefined {
  if (env.PLINTH_INSTALL_DIR) return env.PLINTH_INSTALL_DIR;
  const packageRoot = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
  return basename(dirname(packageRoot)) === 'versions' ? dirname(dirname(packageRoot)) : undefined;
}

/**
 * Where releases come from: PLINTH_RELEASE_URL, else the location install.sh recorded. There is no
 * built-in address: with neither, the client asks no one (no request goes to a host the user did
 * not configure) and the update check is off.
 */
export async function releaseSource(env: Record<string, string | undefined>): Promise<string | undefined> {
  const given = env.PLINTH_RELEASE_URL?.trim();
  if (given) return given;
  const root = installRootOf(env);
  if (!root) return undefined;
  try {
    return (await readFile(join(root, RECORDED_SOURCE_FILE), 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}

export const NO_RELEASE_SOURCE =
  'The update check is off: no release location is configured. Set PLINTH_RELEASE_URL, or install plinth with install.sh, which records where it came from.';

export function indexUrl(source: string): string {
  return source.endsWith('.json') ? source : `${source.replace(/\/+$/, '')}/index.json`;
}

export async function fetchBytes(url: string, timeoutMs = 15_000): Promise<Buffer> {
  if (url.startsWith('file:')) return readFile(fileURLToPath(url));
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

export async function fetchIndex(source: string, timeoutMs?: number): Promise<ReleaseIndex> {
  const url = indexUrl(source);
  const index = JSON.parse((await fetchBytes(url, timeoutMs)).toString('utf8')) as ReleaseIndex;
  if (typeof index.latest !== 'string' || !index.releases?.[index.latest]) throw new Error(`${url} is not a release index`);
  return index;
}

/** The tarball URL of a release, relative to the index. */
export function tarballUrl(source: string, index: ReleaseIndex, version: string): string {
  const release = index.releases[version];
  if (!release) throw new Error(`No release ${version}; available: ${Object.keys(index.releases).join(', ')}`);
  return new URL(release.tarball, indexUrl(source)).toString();
}

/** Compares dotted versions numerically (`0.10.0` > `0.9.1`); a pre-release sorts before its release. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core, pre] = v.replace(/^v/, '').split('-', 2);
    return { parts: core!.split('.').map((p) => Number(p) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}
