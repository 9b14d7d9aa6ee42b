import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { BUILT_PROJECTS } from './test-support/built.js';

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Files only tests use: the test kit, fixtures, the authorisation suite's cases, stand-ins for outside services. */
const TEST_ONLY =
  /\/(test-support\/|[^/]*\.test\.ts$|test-[^/]*\.ts$|[^/]*-test-[^/]*\.ts$|[^/]*\.cases\.ts$|[^/]*fixtures\.ts$|stand-in[^/]*\.ts$)/;

it.each(BUILT_PROJECTS)('the build of %s compiles no file that only tests use, however it is imported', async (project) => {
  const { stdout } = await run(process.execPath, [tsc, '-p', project, '--listFilesOnly'], { maxBuffer: 64 * 1024 * 1024 });
  const own = stdout.split('\n').filter((file) => file.startsWith(`${project}/src/`));
  expect(own.length).toBeGreaterThan(10);
  expect(own.filter((file) => TEST_ONLY.test(file))).toEqual([]);
});
