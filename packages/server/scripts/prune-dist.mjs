// A step of `npm run build` after tsc: removes what tsc emitted for sources that are gone. The
// server finds its modules and migrations by reading dist's folders (src/modules/index.ts), so a
// module or migration deleted or moved in src must not live on in dist from an earlier build.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const src = join(root, 'src');

function prune(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // The embedded store's template (pglite-template.mjs) has no source.
    if (entry.isDirectory() && !entry.name.startsWith('pglite-initdb-')) prune(path);
    const emitted = entry.isFile() && /\.js(\.map)?$/.exec(entry.name);
    if (emitted && !existsSync(join(src, relative(dist, path).replace(/\.js(\.map)?$/, '.ts')))) rmSync(path);
  }
}

prune(dist);
