// Mutation testing (`npm run test:mutation`, not part of `npm test`): the modules whose tests
// were found weak, each against its own table of cases. vitest's `related` mode would pick nearly
// the whole server suite (every server test imports the app, which imports every module), and the
// route-level tests start the app (seconds) for every mutant, so the files are listed here and a
// run takes minutes. The route-level tests of the same rules can only add kills.
// One module: `MUTATE=scim-filter npm run test:mutation` (names below, comma-separated).

const server = 'packages/server/src/modules';
const cli = 'packages/cli/src';
const planner = 'packages/semantic/src/planner';

const modules = {
  'scim-filter': {
    mutate: `${server}/scim/filter.ts`,
    // On the service and a store, without the app: starting the app for each mutant costs seconds.
    tests: [`${server}/scim/filter-cases.test.ts`],
  },
  'embed-tenants-rules': {
    mutate: `${server}/embed-tenants/rules.ts`,
    tests: [`${server}/embed-tenants/rules-cases.test.ts`],
  },
  'embed-request': {
    mutate: `${server}/embed/request.ts`,
    tests: [`${server}/embed/request-cases.test.ts`],
  },
  'cli-output': {
    mutate: `${cli}/core/output.ts`,
    tests: [`${cli}/core/output-cases.test.ts`],
  },
  // Rendered conditions run on one small in-memory DuckDB table (and PostgreSQL when configured),
  // not on the sample warehouse: generating it takes seconds, for every mutant. Run it with
  // DATABASE_URL set: only PostgreSQL refuses a text parameter cast against an integer column.
  'semantic-filters': {
    mutate: `${planner}/filters.ts`,
    tests: [`${planner}/filters-cases.test.ts`],
  },
  // Pure calendar arithmetic: the relative ranges are built from it, so they are scored with it.
  'semantic-dates': {
    mutate: [`${planner}/dates.ts`, `${planner}/relative-dates.ts`],
    tests: [`${planner}/dates-cases.test.ts`],
  },
};

const names = (process.env.MUTATE ?? Object.keys(modules).join(',')).split(',').map((n) => n.trim());
const unknown = names.filter((n) => !(n in modules));
if (unknown.length > 0) throw new Error(`MUTATE: unknown module ${unknown.join(', ')}; one of ${Object.keys(modules).join(', ')}`);
const chosen = names.map((n) => modules[n]);
// Store tests run on PostgreSQL alone when it is configured: the store is opened again for every
// mutant, and PGlite takes seconds to start where PostgreSQL takes one.
if (process.env.DATABASE_URL && process.env.PLINTH_TEST_STORES === undefined) process.env.PLINTH_TEST_STORES = 'postgres';
// Read by vitest.mutation.config.ts in Stryker's test runner processes, which inherit the environment.
process.env.PLINTH_MUTATION_TESTS = JSON.stringify(chosen.flatMap((m) => m.tests));

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: chosen.flatMap((m) => m.mutate),
  coverageAnalysis: 'perTest',
  // The machine is shared: one test runner at a time.
  concurrency: 1,
  // A mutant that makes a store test hang is a kill; the default (5 s over the dry run) is tight for PGlite.
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['release', 'bench/.out', 'reports', '.plinth*', 'coverage'],
  thresholds: { high: 90, low: 85, break: 85 },
};
