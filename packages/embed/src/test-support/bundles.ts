import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Bundles {
  /** The element, as dist/plinth-embed.js is built (scripts/bundle.mjs). */
  sdk: string;
  /** The stand-in embed page's script, on connectHost. */
  page: string;
  /** A React host page rendering <PlinthDashboard>. */
  reactHost: string;
}

/** The browser code of the tests, bundled in memory from the sources (no stale dist). */
export async function bundle(): Promise<Bundles> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: { sdk: 'src/index.ts', page: 'src/test-support/stand-in-page.ts', reactHost: 'src/test-support/react-host.ts' },
    outdir: 'out',
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const text = (name: string) => {
    const file = result.outputFiles.find((f) => f.path.endsWith(`/out/${name}.js`));
    if (!file) throw new Error(`esbuild wrote no ${name}.js`);
    return file.text;
  };
  return { sdk: text('sdk'), page: text('page'), reactHost: text('reactHost') };
}
