import { fileURLToPath } from 'node:url';

const root = (path: string) => fileURLToPath(new URL(`../../../../${path}`, import.meta.url));

/**
 * The built entry points that tests start as processes. global-setup.ts brings the build up to
 * date before any test file runs (`tsc -b`, as `npm run build`), so a process runs this checkout's
 * code, compiled once per run: through tsx every process compiled its sources anew, which cost
 * seconds a server and most of a second a CLI line.
 */
export const BUILT = {
  server: root('packages/server/dist/main.js'),
  cli: root('packages/cli/dist/main.js'),
  semanticCli: root('packages/semantic/dist/cli.js'),
  /** A module of the server's build, by its path under src/ with a .js ending. */
  serverModule: (path: string) => root(`packages/server/dist/${path}`),
};

/** The projects `npm run build` builds, in the order tsc -b takes them. */
export const BUILT_PROJECTS = ['packages/semantic', 'packages/server', 'packages/cli'].map(root);
