import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../workers/index.js';
import { compileFiles } from './compiler.js';
import { ORDERS_CUBE } from '../../test-support/models.js';

describe('compiling on the worker pool', () => {
  // A pool of the test's own, as the process's: the compile task runs from the build, as a server's does.
  const pool = new WorkerPool({ size: 1 });
  afterAll(() => pool.close());

  it('compiles a files map off the main thread and counts cubes', async () => {
    const summary = await compileFiles(new Map([['model/cubes/orders.yml', ORDERS_CUBE]]), pool);
    expect(summary).toEqual({ valid: true, errors: [], cubesCount: 1 });
  });

  it("answers the compiler's own errors, pointing at the file", async () => {
    const summary = await compileFiles(new Map([['model/cubes/bad.yml', 'cubes:\n  - name: bad\n    measures: [\n']]), pool);
    expect(summary.valid).toBe(false);
    expect(summary.errors.length).toBeGreaterThan(0);
    expect(summary.errors[0]).toMatchObject({ fileName: 'model/cubes/bad.yml', message: expect.any(String) });
  });

  it('compiles many at once on one thread, in turn', async () => {
    const files = new Map([['model/cubes/orders.yml', ORDERS_CUBE]]);
    const all = await Promise.all([1, 2, 3].map(() => compileFiles(files, pool)));
    expect(all.map((summary) => summary.cubesCount)).toEqual([1, 1, 1]);
    expect(pool.threadCount).toBe(1);
  });

  it('fails a compile whose thread is gone, saying so, instead of waiting for it', async () => {
    const closed = new WorkerPool({ size: 1 });
    await closed.close();
    await expect(compileFiles(new Map([['model/cubes/orders.yml', ORDERS_CUBE]]), closed)).rejects.toThrow(
      'The worker pool is closed: "builds.compile" was not run',
    );
  });
});
