import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Tests run the sources, never a stale build of a sibling package.
    alias: {
      '@plinth/semantic': fileURLToPath(new URL('./packages/semantic/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts'],
    // On PostgreSQL, overlapping queries on one pg client fail the test file.
    setupFiles: ['packages/server/src/test-support/pg-overlap.ts'],
    // One migrated PGlite data directory per run, which every test store loads.
    globalSetup: ['packages/server/src/test-support/global-setup.ts'],
    // PGlite (WASM) and DuckDB (native) are happier in child processes than in worker threads.
    pool: 'forks',
    // A fork per core: while one waits on PostgreSQL, a child process or a socket, the server's
    // work of the other keeps the cores busy (vitest's default, cores - 1, is one fork on CI's two).
    poolOptions: { forks: { maxForks: Math.max(2, availableParallelism()) } },
    // Files share their fork's loaded modules instead of importing the server's graph again for
    // each (about 3 s a file). Every file makes its own store, app and accounts, so they share no
    // data; process-wide patches (pg-overlap.ts) are installed once per process.
    isolate: false,
    // The default output, and every file's time in test-times.txt (slowest first).
    reporters: ['default', './packages/server/src/test-support/timing-reporter.ts'],
    // Server processes the tests start (and their shells) open no SQL listener on the shared default
    // port unless a test asks for one; the SQL API's tests listen on a free port of their own.
    env: { PLINTH_SQL_PORT: 'off' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
