// The single-file browser build of the element (ES module) that the server serves as {base}/embed/sdk.js:
// a host page loads it with <script type="module" src="…/embed/sdk.js">, with no bundler of its own.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: ['src/index.ts'],
  outfile: 'dist/plinth-embed.js',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});
