import { sampleModelFiles } from '@plinth/semantic';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../workers/index.js';
import { ModelCache } from './models.js';

describe("the data API's models", () => {
  // A pool of the test's own, as the process's: the task runs from the build, as a server's does.
  const pool = new WorkerPool({ size: 2 });
  afterAll(() => pool.close());

  it('compiles a build once on the worker pool, sharing the compile between concurrent first requests', async () => {
    const cache = new ModelCache(pool);
    let reads = 0;
    const files = async () => {
      reads += 1;
      return new Map(Object.entries(sampleModelFiles()));
    };
    const [model, again] = await Promise.all([cache.get(1, files), cache.get(1, files)]);
    expect([...model.cubes.keys()]).toContain('orders');
    expect(again).toBe(model);
    expect(await cache.get(1, files)).toBe(model);
    expect(reads).toBe(1);
  });

  it("fails a model that does not compile with the compiler's errors, and does not keep the failure", async () => {
    const cache = new ModelCache(pool);
    let reads = 0;
    const files = async () => {
      reads += 1;
      return new Map([['model/cubes/bad.yml', 'cubes:\n  - name: bad\n    measures: [\n']]);
    };
    await expect(cache.get(2, files)).rejects.toThrow(/^The data model does not compile: model\/cubes\/bad.yml: /);
    await expect(cache.get(2, files)).rejects.toThrow(/does not compile/);
    expect(reads).toBe(2);
  });
});
