import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The test files of a mutation run (stryker.config.mjs passes them in PLINTH_MUTATION_TESTS).
 * They are chosen here rather than with Stryker's `testFiles`, which in 9.6.1 activates static
 * mutants only after their module is loaded and so reports them as survivors
 * (stryker-mutator/stryker-js#6144).
 */
const files: string[] = JSON.parse(process.env.PLINTH_MUTATION_TESTS ?? '[]');
if (files.length === 0) throw new Error('PLINTH_MUTATION_TESTS names no test files: run `npm run test:mutation`');

export default defineConfig({ ...base, test: { ...base.test, include: files } });
