// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * One lint for the whole repository, run by `npm test` with no warnings allowed. TypeScript files are
 * linted with type information from the root tsconfig.json (sources, tests and benchmarks), so the
 * promise rules see what a call returns.
 *
 * The syntactic recommended set applies in full. Of the type-checked set only the rules that catch
 * real bugs are on: the whole `recommendedTypeChecked` set reported ~1,900 findings, nine in ten of them
 * `no-unsafe-*` on JSON bodies that tests read as `any` on purpose, and `require-await` on Fastify
 * plugins that must be async by contract.
 */
export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', 'coverage/', 'reports/', 'release/', '.stryker-tmp/', 'bench/.out/'] },
  // Generated from the served spec (packages/api-client/scripts/generate.mjs), compared whole by its test.
  { ignores: ['packages/api-client/src/spec.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // A leading underscore names what is left out on purpose (`const { id: _id, ...rest } = row`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // The embedding SDK runs in browsers: typed by its own project, which has the DOM's types.
    files: ['packages/embed/**/*.ts'],
    languageOptions: {
      parserOptions: { project: './packages/embed/tsconfig.check.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // The embed pages run in the browser, with their own compiler options (DOM, JSX for Preact).
    files: ['packages/web/**/*.ts', 'packages/web/**/*.tsx'],
    languageOptions: {
      parserOptions: { project: './packages/web/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // Tests and their fixtures read response bodies whose shape each assertion states; typing every
    // body would repeat the schemas the server already checks, so `any` stays allowed there.
    files: ['**/*.test.ts', '**/test-support/**/*.ts', '**/test-*.ts', '**/*-test-*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // A migration describes the schema as it was when it shipped, not today's, so it takes Kysely<any>
    // as Kysely's migration guide says; shipped migrations are never edited.
    files: ['packages/server/src/store/migrations/*.ts', 'packages/server/src/modules/*/migrations/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The few scripts and bin shims in plain JavaScript run on Node and are outside the TypeScript project.
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
);
