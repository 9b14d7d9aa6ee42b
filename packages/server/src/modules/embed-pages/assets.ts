import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build` puts the web package's output (packages/web/dist), from src/ or dist/ alike. */
export const WEB_DIST = fileURLToPath(new URL('../../../../web/dist/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export interface Asset {
  body: Buffer;
  contentType: string;
}

/** The built pages: the HTML shell and the hashed assets, read once (they change only with a new build). */
export interface WebBuild {
  shell: string;
  /** By URL path (`/assets/index-AbC123.js`): only files the build's manifest names. */
  assets: ReadonlyMap<string, Asset>;
}

interface ManifestEntry {
  file: string;
  css?: string[];
  assets?: string[];
}

/**
 * Reads the build from `dir`, or null when there is none (a checkout where `npm run build` has not
 * run): the pages then say so instead of failing. Only what the manifest lists is served, so no
 * request path ever reaches the file system.
 */
export function readWebBuild(dir = WEB_DIST): WebBuild | null {
  let manifest: Record<string, ManifestEntry>;
  let shell: string;
  try {
    manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestEntry>;
    shell = readFileSync(join(dir, 'index.html'), 'utf8');
  } catch {
    return null;
  }
  const files = new Set<string>();
  for (const entry of Object.values(manifest)) {
    for (const file of [entry.file, ...(entry.css ?? []), ...(entry.assets ?? [])]) if (file.startsWith('assets/')) files.add(file);
  }
  const assets = new Map<string, Asset>();
  for (const file of files) {
    const contentType = TYPES[extname(file)];
    if (!contentType || file.includes('..')) continue;
    assets.set(`/${file}`, { body: readFileSync(join(dir, file)), contentType });
  }
  return { shell, assets };
}
